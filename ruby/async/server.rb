# frozen_string_literal: true

# The fiber-scheduler server: Ruby's Fiber::Scheduler through the async gem (io-event's epoll
# selector), one process, one event loop, a task (fiber) per connection. Behaviour is defined by
# contract.json and CONTRACT.md; where it differs from the other two, CONTRACT.md
# "Known differences" says so.
#   ruby ruby/async/server.rb           (from the project root)
#
# It shares with the EventMachine server the Ruby code that is no event loop's (ruby/shared/): the
# settings (config.rb), the document root (static_site.rb), the request gate (request_gate.rb,
# header_reading.rb: Node's checks), the routes (app.rb) and the reply templates (reply.rb), so
# that em against async compares the runtimes, not two implementations of the contract. Its own:
# the connection and its reply queue on fibers, the deadlines' sweep, the backends on async-http
# and async-redis, the runtime's events. Why not async-http's server (protocol-http1): bare_server.rb.

# The Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run installs
# no other.
require_relative '../load_gems'
EmVsNode::Gems.setup('async server', :default)
require_relative 'ruby31' if RUBY_VERSION < '3.2'
require 'async'
require_relative 'config'
require_relative '../shared/static_site'
require_relative '../shared/app'
require_relative '../shared/connection_cap'
require_relative 'backends'
require_relative '../shared/deadlines'
require_relative 'connection'
require_relative 'listener'
require_relative '../shared/runtime_events'
require_relative 'timer'
require_relative 'stop_signals'

module EmVsNode
  module AsyncServer
    # Builds the same parts in the same order as the other two servers: the settings (config),
    # the document root (StaticSite), the backends (Upstream, Database: each only when
    # configured, and its client library loaded only then), the routes (App), the
    # ConnectionCap, the Deadlines, the connections that use them, and the listener; with
    # RUNTIME_EVENTS_FILE set, the runtime's events for the benchmark runner (RuntimeEvents).
    def self.run(argv)
      config = read_config(argv)
      site = StaticSite.new(config.root, CONTRACT)
      upstream, database = backends(config)
      app = App.new(site, config.limits, CONTRACT, upstream: upstream, database: database)
      cap = ConnectionCap.new(config.limits['MAX_CONNECTIONS'], 'async server')
      deadlines = Deadlines.new(config.limits)
      $stdout.sync = true
      serve(config, app, cap, deadlines, [upstream, database].compact)
    rescue ConfigError => e
      warn "async server: #{e.message}"
      exit 2
    rescue SystemCallError => e
      warn "async server: cannot load the document root: #{e.message}"
      exit 1
    end

    def self.serve(config, app, cap, deadlines, backends)
      events = nil
      Async do |task|
        stop_on_signals(task)
        events = RuntimeEvents.start('async server', &every(task))
        backends.each { |backend| backend.start(task) }
        deadlines.start(&every(task))
        listen(config, cap, task, 'async server') do |socket|
          Connection.new(socket, config.limits, app, cap, deadlines).run
        end
        puts "async server listening on http://#{config.host}:#{config.port} (root #{config.root})"
      end
    ensure
      events&.stop
    end
  end
end

EmVsNode::AsyncServer.run(ARGV) if $PROGRAM_NAME == __FILE__
