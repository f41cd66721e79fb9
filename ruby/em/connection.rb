# frozen_string_literal: true

require 'digest'
require 'eventmachine'
require 'evma_httpserver'
require_relative '../shared/request_gate'
require_relative 'reply'

module EmVsNode
  # One client connection: eventmachine_httpserver's C parser (EM::HttpServer) behind a
  # RequestGate, with replies sent in request order through a ReplyQueue. It gets the parts the
  # entry point (server.rb) built: the limits, the routes (App), the ConnectionCap and the
  # Deadlines.
  class Connection < EM::Connection
    include EM::HttpServer

    HELD_INPUT_FACTOR = 8
    CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n"

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

      steps = @gate.scan(data)
      if steps == :pass
        super
      else
        steps.each do |(kind, value)|
          case kind
          when :feed then super(value)
          when :continue then @replies.deliver(CONTINUE, nil, true) # in its turn, behind replies pending
          when :answer then deliver(@app.error(value.status, value.allow), keep_alive: false, head_only: value.head_only)
          end
        end
      end
      watch_deadlines
    rescue StandardError => e
      internal_error(e)
    end

    # Every reply is out: the connection is idle unless a body is still arriving.
    def replies_sent
      idle_timeout(true) unless @gate.awaiting_body?
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

    # The reply to a request, in its turn (App#route decides which).
    def deliver(template, keep_alive:, head_only: false, slot: nil)
      @replied = true
      keep_alive = template.keep_alive?(keep_alive)
      head = template.head(keep_alive, head_only)
      body = template.body_apart(head_only)
      slot ? @replies.fill(slot, head, body, keep_alive) : @replies.deliver(head, body, keep_alive)
    end

    # Waits on a timer, never blocking the loop (the reply queue holds its place, so the idle
    # timeout is off until it is sent).
    def delay(delay_ms, keep_alive, head_only)
      return deliver(@app.error(400), keep_alive: false, head_only: head_only) if delay_ms.nil?

      slot = @replies.reserve
      timer = EM::Timer.new(delay_ms / 1000.0) do
        @timers.delete(timer)
        deliver(@app.delayed(delay_ms), keep_alive: keep_alive, head_only: head_only, slot: slot)
      rescue StandardError => e
        internal_error(e)
      end
      (@timers ||= []) << timer
    end

    # A reply that waits on a backend call: the block starts the call with a reply callable (given
    # the template, once) and returns the call (#cancel). As /delay's, the reply holds its place
    # in the queue, so replies keep their requests' order and the idle timeout is off meanwhile.
    def await_backend(keep_alive, head_only)
      slot = @replies.reserve
      call = nil
      answered = false
      call = yield(proc do |template|
        answered = true
        @calls&.delete(call)
        deliver(template, keep_alive: keep_alive, head_only: head_only, slot: slot)
      rescue StandardError => e
        internal_error(e)
      end)
      (@calls ||= []) << call unless answered
    end

    private

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

    # Keeps the Deadlines in step with the gate, telling them only of changes (and of body
    # progress). Between requests the idle (keep-alive) timeout applies, as in Node: from the
    # moment every reply is out until the next request's header section is complete, so it
    # also closes a client silent that long in the middle of one (a new connection's first
    # header section has only its header deadline).
    def watch_deadlines
      if @gate.awaiting_header?
        @deadlines.awaiting_header(self) unless @deadline == :header
        @deadline = :header
        idle_timeout(true) if @replied && @replies.empty?
      elsif @gate.awaiting_body?
        @deadlines.awaiting_body(self)
        @deadline = :body
        idle_timeout(false)
      else
        @deadlines.done(self) unless @deadline == :none
        @deadline = :none
        idle_timeout(@replies.empty?)
      end
    end

    # EventMachine's inactivity timeout on or off; changed only when it changes (one C call).
    def idle_timeout(on)
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
