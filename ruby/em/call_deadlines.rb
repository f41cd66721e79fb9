# frozen_string_literal: true

require 'eventmachine'

module EmVsNode
  # The deadlines of backend calls (UpstreamPool, Database), all of one length
  # (BACKEND_TIMEOUT_MS): kept in order of arrival, so also of expiry, behind one EventMachine
  # timer at a time, as Node keeps its timers of one duration in one list behind one timer (so
  # upstream.js and database.js simply use setTimeout). A timer per call would not do here:
  # EventMachine keeps a cancelled timer until its time comes, and refuses more than 100,000
  # at once, which a few tens of thousands of calls a second would near. A call that has
  # finished stays in the list until its time (then it is skipped), so nothing outlives a call by
  # more than the deadline.
  class CallDeadlines
    # How a backend call (a Struct with done and finished) ends, alike whatever ends it first (its
    # reply, an error, its deadline, a cancel): once, done told the result unless cancelled (nil).
    module OneResult
      private

      def finish(call, value)
        return if call.finished

        call.finished = true
        done = call.done
        call.done = nil
        done&.call(value)
      end
    end

    def initialize(timeout_s)
      @timeout_s = timeout_s
      @due = [] # [when, call, expire], earliest first
      @timer = nil
    end

    # expire is called once timeout_s has passed, unless the call has finished by then.
    def watch(call, &expire)
      @due << [now + @timeout_s, call, expire]
      arm unless @timer
    end

    private

    def arm
      @timer = EM::Timer.new([@due.first[0] - now, 0].max) { fire }
    end

    def fire
      @timer = nil
      time = now
      while (entry = @due.first) && (entry[0] <= time || entry[1].finished)
        @due.shift
        entry[2].call unless entry[1].finished
      end
      arm unless @due.empty?
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
