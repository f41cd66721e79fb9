# frozen_string_literal: true

# The EventMachine server: eventmachine_httpserver on EventMachine, one process, one event loop.
# Behaviour is defined by contract.json and CONTRACT.md.
#   ruby em/server.rb                   (inside ruby/)
#   ruby ruby/em/server.rb              (from the project root)

# Only the Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run
# installs no other (test, profile).
require_relative '../load_gems'
EmVsNode::Gems.setup('em server', :default)
require 'eventmachine'
require_relative '../shared/parts'
require_relative 'upstream_pool'
require_relative 'database'
require_relative '../shared/deadlines'
require_relative 'connection'
require_relative '../shared/listener'
require_relative '../shared/runtime_events'

module EmVsNode
  # The backends (UpstreamPool, Database), as server.js's buildBackends: built now, reached
  # later; each only when configured. One that is down is not a start-up error (its routes
  # answer 502/503 meanwhile, and recover when it is back).
  def self.backends(config)
    timeout_ms = config.limits['BACKEND_TIMEOUT_MS']
    upstream = config.upstream && UpstreamPool.new(config.upstream.host, config.upstream.port,
                                                   size: CONTRACT['backends']['upstream_pool'], timeout_ms: timeout_ms)
    database = config.redis && Database.new(config.redis.host, config.redis.port,
                                            key_prefix: CONTRACT['backends']['db_key_prefix'], timeout_ms: timeout_ms)
    [upstream, database]
  end

  # The parts every Ruby server builds (run_server: the settings, the document root, the
  # backends, the routes, the ConnectionCap), then, in the same order as the Node server's
  # server.js, the Deadlines, the connections that use them (Connection, with its RequestGate
  # and replies) and the listener, on EventMachine's loop; with RUNTIME_EVENTS_FILE set, the
  # runtime's events for the benchmark runner (RuntimeEvents).
  def self.run(argv)
    run_server('em', argv, backends: method(:backends)) do |parts|
      config = parts.config
      deadlines = Deadlines.new(config.limits)
      EM.epoll
      # The last line of defence: an error that escapes a callback is said, and the loop goes on.
      EM.error_handler { |e| warn "em server: internal error: #{e.class}: #{e.message} (#{e.backtrace&.first})" }
      events = nil
      EM.run do
        events = RuntimeEvents.start('em server', &EM.method(:add_periodic_timer))
        EM.attach_server(listening_socket(config, 'em server'), Connection, config.limits, parts.app, parts.cap, deadlines)
        deadlines.start(&EM.method(:add_periodic_timer))
        parts.database&.start # EventMachine connects only inside its loop
        %w[INT TERM].each { |signal| Signal.trap(signal) { EM.stop_event_loop } }
        say_listening('em server', config)
      end
      events&.stop
    end
  end
end

EmVsNode.run(ARGV) if $PROGRAM_NAME == __FILE__
