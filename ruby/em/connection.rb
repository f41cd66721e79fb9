# frozen_string_literal: true

require 'digest'
require 'eventmachine'
require 'evma_httpserver'
require_relative '../shared/gated_connection'
require_relative 'reply'

module EmVsNode
  # One client connection: eventmachine_httpserver's C parser (EM::HttpServer) behind a
  # RequestGate, with replies sent in request order through a ReplyQueue (the gate's steps, the
  # replies and the deadlines as every Ruby server that reads its own bytes keeps them:
  # GatedConnection). It gets the parts the entry point (server.rb) built: the limits, the
  # routes (App), the ConnectionCap and the Deadlines.
  class Connection < EM::Connection
    include EM::HttpServer
    include GatedConnection

    HELD_INPUT_FACTOR = 8

    def initialize(limits, app, cap, deadlines)
      super()
      @limits = limits
      @app = app
      @cap = cap
      @deadlines = deadlines
      @keep_alive_s = limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0
    end

    def post_init
      super # the parser's state must exist before unbind, whatever happens next
      @gate = RequestGate.new(@limits, @app.allow_for_path)
      @replies = ReplyQueue.new(self, @limits['MAX_UNSENT_BYTES'])
      @held = nil # requests read while replies wait for the client (back-pressure)
      @timers = nil # /delay timers pending, made on the first
      @calls = nil # backend calls pending (/upstream, /db), made on the first
      @admitted = @cap.room?
      return close_connection unless @admitted

      @cap.opened
      no_environment_strings # the parser would otherwise setenv() every header: slow, and not ours
      dont_accumulate_post   # bodies arrive in receive_post_data, piece by piece
      @idle_timeout_on = false
      @replied = false # whether a reply has been given (the idle timeout applies from then on)
      @deadline = :header # the first request's headers are due from the connection start
      @deadlines.awaiting_header(self)
    end

    def receive_data(data)
      return hold(data) if @replies.backed_up?

      through_gate(data) { |bytes| super(bytes) }
      watch_deadlines
    rescue StandardError => e
      internal_error(e)
    end

    # Every reply is out: the connection is idle unless a body is still arriving.
    def replies_sent
      idle(true) unless @gate.awaiting_body?
    end

    # The replies that held up this connection's input have been taken: read on.
    def replies_caught_up
      held = @held
      @held = nil
      receive_data(held) if held
    end

    # A header section or body took longer than the contract allows (see Deadlines): 408, or,
    # when the late body's request was answered already, a close once the replies are out.
    def timed_out
      answered = @gate.discarding?
      @gate.stop
      @held = nil
      answered ? @replies.close_when_sent : deliver(@app.error(408), keep_alive: false)
    end

    # Called by the parser for each piece of a body, before the request is dispatched.
    def receive_post_data(chunk)
      head = @gate.heads.first
      return unless head&.upload

      (head.digest ||= Digest::SHA256.new).update(chunk)
      head.upload_bytes += chunk.bytesize
    end

    # Called by the parser once a request and its body have arrived.
    def process_http_request
      @app.route(self, @http_request_method, @gate.heads.shift, @http_query_string)
    rescue StandardError => e # caught here, not unwound through the C parser
      internal_error(e)
    end

    def unbind
      super
      @replies.close
      @timers&.each(&:cancel)
      # A client gone first: the calls' results are dropped, nothing is written after the close.
      @calls&.each(&:cancel)
      @deadlines.done(self)
      @cap.release if @admitted
    end

    private

    # A /delay reply's timer (GatedConnection#delay), cancelled if the client leaves first.
    def later(seconds, &work)
      timer = EM::Timer.new(seconds) do
        @timers.delete(timer)
        work.call
      end
      (@timers ||= []) << timer
    end

    # Input that arrives while replies wait for the client is kept, unread by the gate, up to
    # HELD_INPUT_FACTOR × MAX_UNSENT_BYTES. EventMachine cannot stop reading one connection
    # without also stopping its writes, and reads up to 160 KiB per turn before it writes, so
    # the margin lets a pipelining client that does read go on; one that sends that much while
    # it reads nothing is disconnected.
    def hold(data)
      @held = @held ? @held << data : +data
      @deadlines.awaiting_body(self) if @deadline == :body # the client is sending: progress
      return unless @held.bytesize > HELD_INPUT_FACTOR * @limits['MAX_UNSENT_BYTES']

      @held = nil
      @gate.stop
      @replies.close
      close_connection
    end

    # Once a request is whole: EventMachine's idle timer runs whenever no reply is pending, the
    # connection's first request answered or not.
    def idle_between_requests?
      @replies.empty?
    end

    # EventMachine's inactivity timeout on or off; changed only when it changes (one C call).
    # Whether a byte restarts it (again:) is EventMachine's: every byte does.
    def idle(on, **)
      return if on == @idle_timeout_on

      @idle_timeout_on = on
      self.comm_inactivity_timeout = on ? @keep_alive_s : 0
    end

    # A bug of ours must cost one connection, never the server: 500, close, and one line.
    def internal_error(error)
      warn "em server: internal error, connection closed: #{error.class}: #{error.message} (#{error.backtrace&.first})"
      @gate.stop
      @held = nil
      deliver(@app.error(500), keep_alive: false)
    rescue StandardError
      close_connection
    end
  end
end
