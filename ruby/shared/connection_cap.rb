# frozen_string_literal: true

require_relative 'config'

module EmVsNode
  # Counts open connections against a cap below the descriptor limit: past it, new connections
  # are closed at once (accept itself would fail and EventMachine would retry it in a busy loop).
  # The cap is MAX_CONNECTIONS (configured), or when 0 the open-files limit, raised first to the
  # hard limit where the system allows it, less contract.json's fd_reserve for everything else.
  class ConnectionCap
    WARN_INTERVAL_S = 10

    attr_reader :limit

    # who: the server's name in its one line on stderr.
    def initialize(configured, who)
      @who = who
      raise_descriptor_limit
      @limit = configured.positive? ? configured : [Process.getrlimit(:NOFILE)[0] - CONTRACT['fd_reserve'], 1].max
      @open = 0
      @warned_at = nil
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

    def raise_descriptor_limit
      soft, hard = Process.getrlimit(:NOFILE)
      Process.setrlimit(:NOFILE, hard, hard) if soft < hard
    rescue SystemCallError, NotImplementedError
      nil
    end

    def warn_full
      now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      return if @warned_at && now - @warned_at < WARN_INTERVAL_S

      @warned_at = now
      warn "#{@who}: #{@limit} connections open, the limit; new connections are closed (raise ulimit -n or MAX_CONNECTIONS)"
    end
  end
end
