# frozen_string_literal: true

module EmVsNode
  module AsyncServer
    # The fiber scheduler's repeating timer, as EM.add_periodic_timer is EventMachine's, for
    # what the Ruby servers share and each loop times (Deadlines#start, RuntimeEvents.start): a
    # task under `task` that sleeps on the scheduler's timer and then runs the block, for ever,
    # each sleep starting once the block has run. A callable, given the interval in seconds and
    # the block; it returns the task.
    def self.every(task)
      proc do |interval_s, &work|
        task.async do
          loop do
            sleep(interval_s)
            work.call
          end
        end
      end
    end
  end
end
