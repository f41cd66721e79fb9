# frozen_string_literal: true

require_relative 'config'

module EmVsNode
  module AsyncServer
    # The runtime's events, for the benchmark runner, in the EventMachine server's form exactly
    # (ruby/em/runtime_events.rb; the format's one home is perf/lib/measure/runtime_events.js):
    # with RUNTIME_EVENTS_FILE set (contract.json runtime_events), a heartbeat line every
    # heartbeat_ms (how late the event loop ran it: a loop stall), with the allocations every
    # flush_ms, and a line per heartbeat in which the GC worked, written every flush_ms in one
    # write. The heartbeat is a task sleeping on the fiber scheduler's timer, so its lateness is
    # the scheduler's loop stall as the EM heartbeat's is EventMachine's.
    #
    # Ruby times its GC in total (GC.total_time), not per collection: a GC line is placed at the
    # end of the heartbeat it happened in (gc_position=heartbeat), as the EM server's.
    class RuntimeEvents
      SETTINGS = CONTRACT['runtime_events']
      HEARTBEAT_MS = SETTINGS['heartbeat_ms']
      FLUSH_MS = SETTINGS['flush_ms']

      # Starts recording when the environment names a file (else nil); one that cannot be
      # written ends the start in one line (`who: …`, exit 1). Call inside the reactor.
      def self.start(who, task, file = ENV.fetch(SETTINGS['env'], nil))
        return nil if file.nil? || file.empty?

        new(File.open(file, 'w')).tap { |events| events.beat_in(task) }
      rescue SystemCallError => e
        warn "#{who}: cannot write the runtime's events to #{file} (#{SETTINGS['env']}): #{e.message}"
        exit 1
      end

      def initialize(io)
        @io = io
        @lines = []
        @gc = gc_counters
        @flushed_at = now
        @due = @flushed_at + HEARTBEAT_MS
        # The header and a first count, so that a window starting now has its count before it.
        @io.write("# runtime-events 1 runtime=ruby alloc=objects gc_position=heartbeat heartbeat_ms=#{HEARTBEAT_MS}\n" \
                  "h #{ms(@flushed_at)} 0 #{GC.stat(:total_allocated_objects)}\n")
        @io.flush
      end

      def beat_in(task)
        @task = task.async do
          loop do
            sleep(HEARTBEAT_MS / 1000.0)
            beat
          end
        end
      end

      def stop
        @task&.stop
        @io.close
      end

      private

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond)

      def ms(value) = format('%.3f', value)

      def gc_counters = [GC.stat(:minor_gc_count), GC.stat(:major_gc_count), GC.total_time]

      def beat
        at = now
        gc_line(at)
        flush = at - @flushed_at >= FLUSH_MS
        @lines << "h #{ms(at)} #{ms([0, at - @due].max)}#{" #{GC.stat(:total_allocated_objects)}" if flush}"
        write(at) if flush
        @due = at + HEARTBEAT_MS
      end

      # `g START MS KIND N`: N collections began in this heartbeat (0: a step of an earlier one,
      # its lazy sweep or incremental marking), KIND the largest of them.
      def gc_line(at)
        minor, major, total_ns = counters = gc_counters
        gc_ms = (total_ns - @gc[2]) / 1e6
        return if gc_ms <= 0

        begun = (minor - @gc[0]) + (major - @gc[1])
        kind = if major > @gc[1]
                 'major'
               elsif minor > @gc[0]
                 'minor'
               else
                 'other'
               end
        @lines << "g #{ms(at - gc_ms)} #{ms(gc_ms)} #{kind} #{begun}"
        @gc = counters
      end

      def write(at)
        @io.write(@lines.join("\n") << "\n")
        @io.flush
        @lines = []
        @flushed_at = at
      end
    end
  end
end
