# frozen_string_literal: true

require 'async'
require_relative '../shared/runtime_events'
require_relative 'stop_signals'

module EmVsNode
  module AsyncServer
    # The fiber scheduler's loop as each server on it runs it (ruby/async/, ruby/async_http/, and
    # the bare reference): SIGINT and SIGTERM stop it (stop_on_signals), the runtime's events are
    # recorded on its timer when asked, and the backends' calls run under its top task (their
    # #start); then the block, given the top task, listens. Returns once the loop has stopped.
    def self.reactor(name, backends = [])
      events = nil
      Async do |task|
        stop_on_signals(task)
        events = RuntimeEvents.start(name, &every(task))
        backends.each { |backend| backend.start(task) }
        yield task
      end
    ensure
      events&.stop
    end

    # The fiber scheduler's repeating timer, as EM.add_periodic_timer is EventMachine's, for
    # what the Ruby servers share and each loop times (Deadlines#start, RuntimeEvents.start): a
    # task under `task` that sleeps on the scheduler's timer and then runs the block, for ever,
    # each sleep starting once the block has run. A callable, given the interval in seconds and
    # the block; it returns the task.
    def self.every(task)
      proc { |interval_s, &work| task.async { repeat(interval_s, work) } }
    end

    def self.repeat(interval_s, work)
      loop do
        sleep(interval_s)
        work.call
      end
    end
  end
end
