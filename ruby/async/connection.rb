# frozen_string_literal: true

require 'digest'
require 'socket'
require_relative '../shared/gated_connection'
require_relative 'request_reader'
require_relative 'reply'

module EmVsNode
  module AsyncServer
    # One client connection on the fiber scheduler: a reading task (this one's #run) and a
    # writing task. Every byte passes the RequestGate that the EventMachine server uses (Node's
    # checks and the contract's limits, the same Ruby code), then the RequestReader; requests go
    # to the App (the routes, through #deliver, #delay, #await_backend), and replies out through
    # a ReplyQueue in request order: the gate's steps, the replies and the deadlines as the EM
    # server's connection keeps them (GatedConnection). It gets the parts the entry point
    # (server.rb) built: the limits, the routes (App), the ConnectionCap and the Deadlines.
    class Connection
      include GatedConnection

      READ_BYTES = 64 * 1024
      # What a connection's end looks like from a read or a write: the client left.
      GONE = [EOFError, IOError, Errno::ECONNRESET, Errno::EPIPE, Errno::ETIMEDOUT, Errno::ENOTCONN].freeze

      # Made in the connection's own task, a child of the server's (listener.rb).
      def initialize(socket, limits, app, cap, deadlines)
        @socket = socket
        # The parent of this connection's other tasks (writer, timers): the server's task, so that
        # none is stopped with another (Task#stop stops a task's children first).
        @server_task = Async::Task.current.parent
        @limits = limits
        @app = app
        @cap = cap
        @deadlines = deadlines
        @gate = RequestGate.new(limits, app.allow_for_path)
        @reader = RequestReader.new
        @replies = ReplyQueue.new(limits['MAX_UNSENT_BYTES'])
        @upload = nil # the head of the upload whose body is arriving
        @timers = nil # /delay tasks pending, made on the first
        @calls = nil  # backend calls pending (/upstream, /db), made on the first
        @closed = false
        @replied = false # whether a reply has been given (the idle timeout applies from then on)
        @idle = false
      end

      # The reading task: reads until the client's end or the connection's.
      def run
        @reading = Async::Task.current
        @socket.setsockopt(:TCP, :NODELAY, true) # as Node's server: replies go out as written
        @writing = @server_task.async { write_replies }
        @deadline = :header # the first request's headers are due from the connection start
        @deadlines.awaiting_header(self)
        read_requests
      rescue *GONE
        shut
      rescue StandardError => e # a bug of ours outside a request (those are #internal_error's)
        warn "async server: internal error, connection closed: #{e.class}: #{e.message} (#{e.backtrace&.first})"
        shut
      end

      # Every reply is out: the connection is idle unless a body is still arriving (or no reply
      # has been given yet: a new connection's first request has only its header deadline).
      def replies_sent
        idle(true) if @replied && !@gate.awaiting_body?
      end

      # A header section or body took longer than the contract allows (see Deadlines): 408, or,
      # when the late body's request was answered already, a close once the replies are out.
      def timed_out
        return if @closed

        answered = @gate.discarding?
        @gate.stop
        answered ? @replies.close_when_sent : deliver(@app.error(408), keep_alive: false)
      end

      # Idle for KEEPALIVE_TIMEOUT_MS: closed without a reply.
      def idle_out
        shut
      end

      private

      # A /delay reply's timer (GatedConnection#delay): a task of its own on the scheduler's
      # timer, under the server's task, stopped if the connection ends first.
      def later(seconds, &work)
        timers = (@timers ||= [])
        timer = @server_task.async do |task|
          sleep(seconds)
          timers.delete(task)
          work.call
        end
        timers << timer unless timer.finished?
      end

      def read_requests
        until @closed
          @replies.wait_for_room
          return if @closed

          data = @socket.readpartial(READ_BYTES)
          received(data)
          # A full read means more is likely waiting, and a read that finds data never waits, so
          # the fiber scheduler would run this task alone until its client stops sending: each
          # 16 MiB upload held the reactor for its whole body (a probe's /hello at p90 436 ms
          # beside four uploads; 5.7 ms with this). async-http's server yields after each
          # request for the same reason. A short read emptied the socket: the next one waits.
          Async::Task.current.yield if data.bytesize == READ_BYTES
        end
      rescue EOFError
        end_of_input
      end

      # The client's end: nothing more will come. The replies already due go out (a client
      # that half-closes after its request gets its whole reply, as from Node), then the close.
      # A request cut off in its body is never answered.
      def end_of_input
        return shut if @gate.awaiting_body? && !@gate.discarding?

        @gate.stop
        @replies.close_when_sent
      end

      def received(data)
        through_gate(data) { |bytes| read(bytes) }
        watch_deadlines unless @closed
      rescue StandardError => e
        internal_error(e)
      end

      # Bytes the gate let through: requests, and an upload's body.
      def read(bytes)
        @reader.read(bytes) do |kind, method, query, length|
          case kind
          when :request
            @request = [method, query]
            dispatch if length.zero?
          when :body
            (@gate.heads.first.digest ||= Digest::SHA256.new).update(method)
            @gate.heads.first.upload_bytes += method.bytesize
          when :body_end then dispatch
          end
        end
      end

      def dispatch
        method, query = @request
        @app.route(self, method, @gate.heads.shift, query)
      end

      def write_replies
        @replies.each_ready(method(:replies_sent)) do |entry|
          idle(false)
          @socket.write(entry.head)
          @socket.write(entry.body) if entry.body
        end
        shut
      rescue *GONE, StandardError
        shut
      end

      # Once a request is whole: idle when no reply is pending and one has been given (a new
      # connection's first request is not idle).
      def idle_between_requests?
        @replied && @replies.empty?
      end

      # The idle timeout on (from now) or off; again: a byte arrived, so it starts over.
      def idle(on, again: false)
        return if on == @idle && !(on && again)

        @idle = on
        @deadlines.idle(self, on)
      end

      # The connection ends: its tasks stop, its socket closes, its place under the cap is freed.
      # Backend calls under way run on (bounded by their deadline) and their results are dropped.
      def shut
        return if @closed

        @closed = true
        @gate.stop
        @replies.close
        @deadlines.forget(self)
        @cap.release
        current = Async::Task.current
        [*@timers, @writing, @reading].each { |task| task.stop if task && !task.equal?(current) && !task.finished? }
        @timers = nil
        @socket.close
      rescue IOError
        nil
      end

      # A bug of ours must cost one connection, never the server: 500, close, and one line.
      def internal_error(error)
        warn "async server: internal error, connection closed: #{error.class}: #{error.message} (#{error.backtrace&.first})"
        @gate.stop
        deliver(@app.error(500), keep_alive: false)
      rescue StandardError
        shut
      end
    end
  end
end
