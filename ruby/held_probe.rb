# frozen_string_literal: true

# What a Ruby server's memory holds, asked for over a Unix socket (perf/lib/studies/held_memory.js):
# loaded into a server before its own code (RUBYOPT=-r<this file>, HELD_PROBE_SOCKET=<path>), it
# answers each connection with one line of JSON after a full collection and closes: what only the
# runtime knows (its objects by class, fibers, threads); the process's resident memory and
# mappings the study reads from /proc itself, right after. Its thread has no fiber scheduler of
# its own (a scheduler is per thread), so its accept and write block this thread only, whichever
# loop the server runs. JSON is required at the first question, after the server has set up its
# bundle: required before, the default gem's json would be active and Bundler would refuse the
# bundle's.

require 'objspace'
require 'socket'

module HeldProbe
  TOP_CLASSES = 15

  def self.top_classes
    counts = Hash.new(0)
    bytes = Hash.new(0)
    ObjectSpace.each_object do |object|
      klass = begin
        object.class.name || object.class.to_s
      rescue StandardError
        'BasicObject'
      end
      counts[klass] += 1
      bytes[klass] += ObjectSpace.memsize_of(object)
    end
    bytes.sort_by { |_, size| -size }.first(TOP_CLASSES).map { |name, size| { name: name, count: counts[name], bytes: size } }
  end

  def self.facts
    GC.start(full_mark: true, immediate_sweep: true)
    fibers = ObjectSpace.each_object(Fiber).to_a
    {
      runtime: "ruby #{RUBY_VERSION}#{defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? ' +YJIT' : ''}",
      object_bytes: ObjectSpace.memsize_of_all,
      live_slots: GC.stat(:heap_live_slots),
      heap_pages_bytes: GC.stat(:heap_allocated_pages) * GC::INTERNAL_CONSTANTS[:HEAP_PAGE_SIZE],
      fibers: fibers.size,
      fibers_alive: fibers.count(&:alive?),
      threads: Thread.list.size,
      fiber_stack_bytes: RubyVM::DEFAULT_PARAMS.values_at(:fiber_vm_stack_size, :fiber_machine_stack_size).sum,
      classes: top_classes
    }
  end

  def self.serve(path)
    server = UNIXServer.new(path)
    Thread.new do
      loop do
        client = server.accept
        require 'json'
        client.write("#{JSON.generate(facts)}\n")
      rescue StandardError => e
        client&.write("#{JSON.generate(error: e.message)}\n")
      ensure
        client&.close
      end
    end
  end
end

HeldProbe.serve(ENV.fetch('HELD_PROBE_SOCKET')) if ENV['HELD_PROBE_SOCKET']
