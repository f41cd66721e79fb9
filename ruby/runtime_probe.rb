# frozen_string_literal: true

# What the Ruby that runs the servers exactly is, as one line of JSON (perf/lib/hosts/runtimes.js
# reads it for results.json): run with the environment a server gets (RUBY_YJIT_ENABLE, the
# RUBY_GC_* variables), from the project root:
#   ruby ruby/runtime_probe.rb
# It loads the bundle as the servers do (ruby/load_gems.rb: this Ruby's Gemfile, the default group),
# so the versions are those the servers load, and io-event's selector is the one async's scheduler
# makes (IO::Event::Selector.default, IO_EVENT_SELECTOR honoured: io-event 1.11 and 1.22 alike).

require_relative 'load_gems'
EmVsNode::Gems.setup('runtime probe', :default)
require 'json'
require 'pathname'
require 'io/event'
require 'eventmachine'

module EmVsNode
  module RuntimeProbe
    GEMS = %w[eventmachine eventmachine_httpserver async async-http async-redis io-event protocol-http1].freeze

    def self.gem_version(name)
      spec = Gem.loaded_specs[name] || Bundler.load.specs.find { |s| s.name == name }
      spec&.version&.to_s
    end

    def self.facts
      {
        version: RUBY_VERSION,
        patchlevel: RUBY_PATCHLEVEL,
        description: RUBY_DESCRIPTION,
        yjit: defined?(RubyVM::YJIT) ? RubyVM::YJIT.enabled? : false,
        gc_env: ENV.select { |name, _| name.start_with?('RUBY_GC_') }.sort.to_h,
        gemfile: Pathname(Gems.gemfile).relative_path_from(Pathname(Gems::ROOT)).to_s,
        gems: GEMS.to_h { |name| [name, gem_version(name)] },
        io_event_selector: IO::Event::Selector.default.name,
        eventmachine_reactor: EventMachine.library_type.to_s
      }
    end
  end
end

puts JSON.generate(EmVsNode::RuntimeProbe.facts)
