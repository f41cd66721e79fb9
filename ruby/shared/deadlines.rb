# frozen_string_literal: true

module EmVsNode
  # The request timeouts of the contract, on one periodic sweep (as Node's
  # connectionsCheckingInterval) so that a request pays no timer of its own:
  # - a header section must arrive within HEADERS_TIMEOUT_MS of its first byte (or of the
  #   connection's start): slowloris;
  # - a body must make progress at least every BODY_TIMEOUT_MS;
  # - a whole request, header and body, must arrive within REQUEST_TIMEOUT_MS (a trickle);
  # past any of them the connection is told (Connection#timed_out): 408 and close;
  # - between requests (every reply out, the next header section not complete) no byte for
  #   KEEPALIVE_TIMEOUT_MS closes the connection without a reply (Connection#idle_out), for a
  #   loop with no idle timer of its own: EventMachine has one per connection (the EM server
  #   never calls #idle); the fiber scheduler has none, so it is in the same sweep: a
  #   connection is closed between one timeout and one timeout and a sweep interval after its
  #   last byte.
  # The sweep runs as Node's (node/deadlines.js: connectionsCheckingInterval): every half of the
  # shorter of the header and body timeouts, at most every second, so that a request that ends
  # near its deadline meets the same odds on every server.
  class Deadlines
    def initialize(limits)
      @header_s = limits['HEADERS_TIMEOUT_MS'] / 1000.0
      @body_s = limits['BODY_TIMEOUT_MS'] / 1000.0
      @request_s = limits['REQUEST_TIMEOUT_MS'] / 1000.0
      @idle_s = limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0
      @headers = {} # connection => when its header section (or the connection) began
      @bodies = {}  # connection => [when its request began, when its body last made progress]
      @idle = {}    # connection => when its last byte arrived, or its last reply went out
    end

    # every: the event loop's repeating timer (EM.add_periodic_timer, AsyncServer.every), called
    # with the interval in seconds and the sweep.
    def start(&every)
      every.call([1.0, [@header_s, @body_s].min / 2].min) { sweep }
    end

    # A header section is due; an earlier start is kept.
    def awaiting_header(connection)
      @bodies.delete(connection)
      @headers[connection] ||= now
    end

    # Body bytes are due, or have just arrived: progress.
    def awaiting_body(connection)
      progress = now
      entry = @bodies[connection]
      return entry[1] = progress if entry

      @bodies[connection] = [@headers.delete(connection) || progress, progress]
    end

    # The connection is idle from now (on: true), or is no longer (false); bytes that arrive
    # while it is idle call this again, each restarting its idle time.
    def idle(connection, on)
      on ? @idle[connection] = now : @idle.delete(connection)
    end

    def done(connection)
      @headers.delete(connection)
      @bodies.delete(connection)
    end

    def forget(connection)
      done(connection)
      @idle.delete(connection)
    end

    def sweep
      time = now
      expired = @headers.select { |_, began| time - began > @header_s }.keys
      expired.concat(@bodies.select { |_, (began, progress)| time - progress > @body_s || time - began > @request_s }.keys)
      idle = @idle.select { |_, since| time - since > @idle_s }.keys
      idle.each do |connection|
        forget(connection)
        connection.idle_out
      end
      expired.each do |connection|
        done(connection)
        connection.timed_out
      end
    end

    private

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
