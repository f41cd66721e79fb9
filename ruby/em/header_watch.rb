# frozen_string_literal: true

require 'eventmachine'

module EmVsNode
  # Slowloris defence: connections whose header section takes longer than HEADERS_TIMEOUT_MS are
  # answered 408 and closed. One periodic sweep over just the connections still waiting for
  # headers, as Node's connectionsCheckingInterval does, so a request pays no timer of its own.
  class HeaderWatch
    def initialize(timeout_ms)
      @timeout_s = timeout_ms / 1000.0
      @waiting = {} # connection => monotonic time its header section (or the connection) began
    end

    def start
      EM.add_periodic_timer([1.0, @timeout_s / 2].min) { sweep }
    end

    # Marks a connection as waiting for headers; an earlier start time is kept.
    def waiting(connection)
      @waiting[connection] ||= now
    end

    def done(connection)
      @waiting.delete(connection)
    end

    def sweep
      deadline = now - @timeout_s
      expired = @waiting.select { |_, since| since < deadline }.keys
      expired.each do |connection|
        @waiting.delete(connection)
        connection.headers_timed_out
      end
    end

    private

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end

  # Counts open connections against a cap below the descriptor limit: past it, new connections
  # are closed at once (accept itself would fail and EventMachine would retry it in a busy loop).
  class ConnectionCap
    FD_RESERVE = 64
    WARN_INTERVAL_S = 10

    attr_reader :limit

    def initialize(configured)
      @limit = configured.positive? ? configured : [Process.getrlimit(:NOFILE)[0] - FD_RESERVE, 1].max
      @open = 0
      @warned_at = nil
    end

    # Raises the soft limit on open files to the hard limit, where the system allows it.
    def self.raise_descriptor_limit
      soft, hard = Process.getrlimit(:NOFILE)
      Process.setrlimit(:NOFILE, hard, hard) if soft < hard
    rescue SystemCallError, NotImplementedError
      nil
    end

    # Whether one more connection fits; says so (at most every ten seconds) when it does not.
    def room?
      return true if @open < @limit

      warn_full
      false
    end

    def opened
      @open += 1
    end

    def release
      @open -= 1
    end

    private

    def warn_full
      now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      return if @warned_at && now - @warned_at < WARN_INTERVAL_S

      @warned_at = now
      warn "em server: #{@limit} connections open, the limit; new connections are closed (raise ulimit -n or MAX_CONNECTIONS)"
    end
  end
end
