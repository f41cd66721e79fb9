# frozen_string_literal: true

require 'eventmachine'

module EmVsNode
  # The request timeouts of the contract, on one periodic sweep (as Node's
  # connectionsCheckingInterval) so that a request pays no timer of its own:
  # - a header section must arrive within HEADERS_TIMEOUT_MS of its first byte (or of the
  #   connection's start): slowloris;
  # - a body must make progress at least every BODY_TIMEOUT_MS;
  # - a whole request, header and body, must arrive within REQUEST_TIMEOUT_MS (a trickle).
  # Past any of them the connection is told (Connection#timed_out): 408 and close.
  class Deadlines
    def initialize(limits)
      @header_s = limits['HEADERS_TIMEOUT_MS'] / 1000.0
      @body_s = limits['BODY_TIMEOUT_MS'] / 1000.0
      @request_s = limits['REQUEST_TIMEOUT_MS'] / 1000.0
      @headers = {} # connection => when its header section (or the connection) began
      @bodies = {}  # connection => [when its request began, when its body last made progress]
    end

    def start
      EM.add_periodic_timer([1.0, [@header_s, @body_s].min / 2].min) { sweep }
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

    def done(connection)
      @headers.delete(connection)
      @bodies.delete(connection)
    end

    def sweep
      time = now
      expired = @headers.select { |_, began| time - began > @header_s }.keys
      expired.concat(@bodies.select { |_, (began, progress)| time - progress > @body_s || time - began > @request_s }.keys)
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
