# frozen_string_literal: true

require_relative 'config'

module EmVsNode
  # The runtime's events, for the benchmark runner: with RUNTIME_EVENTS_FILE set (contract.json
  # runtime_events), appends to that file a heartbeat line every heartbeat_ms (how late the
  # event loop ran it: a loop stall) and a line per heartbeat in which the GC worked, as
  # node/runtime_events.js does for Node. The format's one home is
  # perf/lib/measure/runtime_events.js.
  #
  # Ruby times its GC in total (GC.total_time), not per collection, and tells no GC's start: a
  # GC line is placed at the end of the heartbeat it happened in (where it delays the heartbeat,
  # when it does): gc_position=heartbeat. Its work is exact; where it was, to a heartbeat.
  # Why this costs the request path nothing measurable: a timer every 10 ms reading a few GC
  # counters, the lines written every 100 ms in one write.
  #
  # The heartbeat is the server's own event loop's timer (EM.add_periodic_timer, or the fiber
  # scheduler's: AsyncServer.every), so that its lateness is that loop's stall.
  class RuntimeEvents
    SETTINGS = CONTRACT['runtime_events']
    HEARTBEAT_MS = SETTINGS['heartbeat_ms']
    FLUSH_MS = SETTINGS['flush_ms']

    # Starts recording when the environment names a file (else nil); one that cannot be written
    # ends the start in one line (`who: …`, exit 1). Call inside the event loop; every: its
    # repeating timer, called with the interval in seconds and the heartbeat (a block), which
    # it runs once per interval, each time an interval after the last run ended.
    def self.start(who, file = ENV.fetch(SETTINGS['env'], nil), &every)
      return nil if file.nil? || file.empty?

      new(File.open(file, 'w')).tap { |events| every.call(HEARTBEAT_MS / 1000.0) { events.beat } }
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

    # Once the event loop has returned: its timer runs no more heartbeats.
    def stop
      @io.close
    end

    def beat
      at = now
      gc_line(at)
      flush = at - @flushed_at >= FLUSH_MS
      @lines << "h #{ms(at)} #{ms([0, at - @due].max)}#{" #{GC.stat(:total_allocated_objects)}" if flush}"
      write(at) if flush
      @due = at + HEARTBEAT_MS
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond)

    def ms(value) = format('%.3f', value)

    def gc_counters = [GC.stat(:minor_gc_count), GC.stat(:major_gc_count), GC.total_time]

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
