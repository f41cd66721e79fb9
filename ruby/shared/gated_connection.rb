# frozen_string_literal: true

require_relative 'request_gate'

module EmVsNode
  # What a connection that reads its own bytes behind the RequestGate does alike on either event
  # loop (the EM server's Connection, the fiber-scheduler server's): the gate's steps, the
  # replies the routes give (App#route calls #deliver, #delay and #await_backend), each in its
  # request's turn through the connection's ReplyQueue, and the Deadlines kept in step with the
  # gate. The connection has @gate, @app, @replies, @deadlines, @deadline and @replied, and its
  # loop's own parts: #later (a one-shot timer), #idle (its idle timeout on or off),
  # #idle_between_requests? and #internal_error.
  module GatedConnection
    CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n"

    # The reply to a request, in its turn (App#route decides which).
    def deliver(template, keep_alive:, head_only: false, slot: nil)
      @replied = true
      keep_alive = template.keep_alive?(keep_alive)
      head = template.head(keep_alive, head_only)
      body = template.body_apart(head_only)
      slot ? @replies.fill(slot, head, body, keep_alive) : @replies.deliver(head, body, keep_alive)
    end

    # Waits on the loop's timer, never blocking the loop (the reply queue holds its place, so the
    # idle timeout is off until it is sent).
    def delay(delay_ms, keep_alive, head_only)
      return deliver(@app.error(400), keep_alive: false, head_only: head_only) if delay_ms.nil?

      slot = @replies.reserve
      later(delay_ms / 1000.0) do
        deliver(@app.delayed(delay_ms), keep_alive: keep_alive, head_only: head_only, slot: slot)
      rescue StandardError => e
        internal_error(e)
      end
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

    # Arriving bytes through the gate: what it lets through goes to the block (the parser, or
    # the request reader), in order with the 100 Continues and the answers the gate gives itself.
    def through_gate(data)
      steps = @gate.scan(data)
      return yield(data) if steps == :pass

      steps.each do |(kind, value)|
        case kind
        when :feed then yield value
        when :continue then @replies.deliver(CONTINUE, nil, true) # in its turn, behind replies pending
        when :answer then deliver(@app.error(value.status, value.allow), keep_alive: false, head_only: value.head_only)
        end
      end
    end

    # Keeps the Deadlines in step with the gate, telling them only of changes (and of body
    # progress). Between requests the idle (keep-alive) timeout applies, as in Node: from the
    # moment every reply is out until the next request's header section is complete, so it
    # also closes a client silent that long in the middle of one, any byte restarting it (a new
    # connection's first header section has only its header deadline).
    def watch_deadlines
      if @gate.awaiting_header?
        @deadlines.awaiting_header(self) unless @deadline == :header
        @deadline = :header
        idle(true, again: true) if @replied && @replies.empty?
      elsif @gate.awaiting_body?
        @deadlines.awaiting_body(self)
        @deadline = :body
        idle(false)
      elsif !@replied && @replies.empty?
        # Empty lines alone on a new connection: its first header section is still due, from
        # the connection's start as Node's headersTimeout (without this, the async server held
        # a client sending CR LF now and then open for ever).
        idle(idle_between_requests?, again: true)
      else
        @deadlines.done(self) unless @deadline == :none
        @deadline = :none
        idle(idle_between_requests?, again: true)
      end
    end
  end
end
