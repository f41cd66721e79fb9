# frozen_string_literal: true

require 'eventmachine'
require_relative 'call_deadlines'

module EmVsNode
  # The upstream HTTP server behind /upstream, reached through EventMachine's own event-driven
  # HTTP client (em-http-request) over a keep-alive pool, as the Node server's upstream.js
  # reaches it through http.Agent. em-http-request has no pool, so this is one, doing what the
  # Agent does: at most `size` connections, idle ones reused (the last used first, as the
  # Agent's 'lifo'), calls beyond them waiting in order of arrival; a connection that fails or
  # times out is dropped. And what upstream.js adds to the Agent: a deadline on each call
  # (BACKEND_TIMEOUT_MS, from the call to the whole reply, the wait for a connection included),
  # a result that can be dropped (cancel, for a client that went away), and one retry of a
  # request that failed on a connection that had been idle (a stale keep-alive connection the
  # upstream closed as we reused it: not the upstream's failure).
  class UpstreamPool
    include CallDeadlines::OneResult

    # One GET: its path, what to tell (done, nil once cancelled), the connection it is on (nil
    # while it waits for one), whether it was sent again, whether it has ended.
    Call = Struct.new(:pool, :path, :done, :connection, :retried, :finished) do
      def cancel
        pool.cancel(self)
      end
    end

    # em-http-request sends through a proxy named in HTTP_PROXY or ALL_PROXY (NO_PROXY unread);
    # Node's http reads no such variable, and the upstream is a host we name: neither server does.
    module NoProxyFromEnvironment
      private

      def proxy_from_env
        nil
      end
    end

    def initialize(host, port, size:, timeout_ms:)
      # Loaded only when an upstream is configured: a server without one (every benchmark but the
      # backend scenarios) keeps its start-up and memory as they were. upstream.js does the same.
      require 'em-http-request'
      ::HttpConnectionOptions.prepend(NoProxyFromEnvironment) unless ::HttpConnectionOptions < NoProxyFromEnvironment
      @url = "http://#{host.include?(':') ? "[#{host}]" : host}:#{port}/"
      @size = size
      @timeout_s = timeout_ms / 1000.0
      @deadlines = CallDeadlines.new(@timeout_s)
      @idle = [] # connections free for a request, the last used at the end
      @busy = {}.compare_by_identity # connection => the call on it
      @waiting = [] # calls waiting for a connection, first come first served
    end

    # GETs path; yields once, with the body of a 200 reply or nil for anything else (refused,
    # reset, another status, past the deadline). Returns the call: #cancel means the block is
    # never called; a call still waiting leaves the queue, one under way runs on (bounded by its
    # deadline) so that its connection stays usable.
    def get(path, &done)
      call = Call.new(self, path, done, nil, false, false)
      @deadlines.watch(call) { time_out(call) }
      @waiting << call
      dispatch
      call
    end

    def cancel(call)
      call.done = nil
      return if call.finished || call.connection

      @waiting.delete(call)
      finish(call, nil)
    end

    private

    def dispatch
      while (call = @waiting.first)
        connection = @idle.pop || (@idle.size + @busy.size < @size && new_connection)
        return unless connection

        @waiting.shift
        send_on(connection, call)
      end
    end

    # No inactivity timeout of em-http-request's, checked only on EventMachine's heartbeat: the
    # call's own deadline bounds a request, and an idle connection stays until the upstream
    # closes it, as with the Agent.
    def new_connection
      EM::HttpRequest.new(@url, inactivity_timeout: 0, connect_timeout: @timeout_s)
    end

    def send_on(connection, call)
      # em-http-request opens a new socket for a connection whose socket has closed (deferred):
      # only a connection with its socket still open had been idle and can be stale.
      reused = !connection.deferred
      @busy[connection] = call
      call.connection = connection
      path, query = call.path.split('?', 2)
      # As Node's http.request asks: no compression offered, nothing to decode.
      request = connection.get(path: path, query: query, keepalive: true, compressed: false, decoding: false)
      request.callback { answered(connection, request) }
      request.errback { failed(connection, request, reused) }
    end

    def answered(connection, request)
      call = @busy.delete(connection)
      return unless call # the call timed out and the connection was dropped

      @idle << connection
      finish(call, request.response_header.status == 200 ? request.response.b : nil)
      dispatch
    end

    def failed(connection, request, reused)
      call = @busy.delete(connection)
      return unless call

      drop(connection)
      if reused && !call.retried && request.response_header.status.zero?
        # The connection had been idle and failed before any reply: stale. The others idle as
        # long are likely stale too (an upstream restart closes them all), so they go, and the
        # request is sent once more, on a fresh connection (at the queue's end, as the Agent
        # queues upstream.js's retry).
        @idle.each { |idle| drop(idle) }
        @idle.clear
        call.retried = true
        call.connection = nil
        @waiting << call
      else
        finish(call, nil)
      end
      dispatch
    end

    # Past the deadline: a request on a connection cannot be taken back, so that connection goes.
    def time_out(call)
      if call.connection
        @busy.delete(call.connection)
        drop(call.connection)
      else
        @waiting.delete(call)
      end
      finish(call, nil)
      dispatch
    end

    def drop(connection)
      connection.conn&.close_connection unless connection.deferred
    end
  end
end
