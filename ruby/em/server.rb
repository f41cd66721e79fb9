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
require_relative '../shared/config'
require_relative '../shared/static_site'
require_relative 'upstream_pool'
require_relative 'database'
require_relative '../shared/app'
require_relative '../shared/connection_cap'
require_relative '../shared/deadlines'
require_relative 'connection'
require_relative '../shared/listener'
require_relative '../shared/runtime_events'

module EmVsNode
  # Builds the same parts in the same order as the Node server's server.js, and hands them down:
  # the settings (config), the document root (StaticSite), the backends (UpstreamPool, Database:
  # each only when configured), the routes (App), the ConnectionCap,
  # the Deadlines, the connections that use them (Connection, with its RequestGate and replies),
  # and the listener; with RUNTIME_EVENTS_FILE set, the runtime's events for the benchmark runner
  # (RuntimeEvents).
  # The backends, as server.js's buildBackends: built now, reached later; each only when
  # configured. One that is down is not a start-up error (its routes answer 502/503 meanwhile,
  # and recover when it is back).
  def self.backends(config)
    timeout_ms = config.limits['BACKEND_TIMEOUT_MS']
    upstream = config.upstream && UpstreamPool.new(config.upstream.host, config.upstream.port,
                                                   size: CONTRACT['backends']['upstream_pool'], timeout_ms: timeout_ms)
    database = config.redis && Database.new(config.redis.host, config.redis.port,
                                            key_prefix: CONTRACT['backends']['db_key_prefix'], timeout_ms: timeout_ms)
    [upstream, database]
  end

  def self.run(argv)
    config = read_config(argv)
    site = StaticSite.new(config.root, CONTRACT)
    upstream, database = backends(config)
    app = App.new(site, config.limits, CONTRACT, upstream: upstream, database: database)
    cap = ConnectionCap.new(config.limits['MAX_CONNECTIONS'])
    deadlines = Deadlines.new(config.limits)
    $stdout.sync = true
    EM.epoll
    # The last line of defence: an error that escapes a callback is said, and the loop goes on.
    EM.error_handler { |e| warn "em server: internal error: #{e.class}: #{e.message} (#{e.backtrace&.first})" }
    events = nil
    EM.run do
      events = RuntimeEvents.start('em server', &EM.method(:add_periodic_timer))
      EM.attach_server(listening_socket(config, 'em server'), Connection, config.limits, app, cap, deadlines)
      deadlines.start(&EM.method(:add_periodic_timer))
      database&.start # EventMachine connects only inside its loop
      %w[INT TERM].each { |signal| Signal.trap(signal) { EM.stop_event_loop } }
      puts "em server listening on http://#{config.host}:#{config.port} (root #{config.root})"
    end
    events&.stop
  rescue ConfigError => e
    warn "em server: #{e.message}"
    exit 2
  rescue SystemCallError => e
    warn "em server: cannot load the document root: #{e.message}"
    exit 1
  end
end

EmVsNode.run(ARGV) if $PROGRAM_NAME == __FILE__
