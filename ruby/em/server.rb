# frozen_string_literal: true

# The EventMachine server: eventmachine_httpserver on EventMachine, one process, one event loop.
# Behaviour is defined by contract.json and CONTRACT.md.
#   ruby em/server.rb                   (inside ruby/)
#   bundle exec ruby ruby/em/server.rb  (from the project root)

ENV['BUNDLE_GEMFILE'] ||= File.expand_path('../../Gemfile', __dir__)
begin
  require 'bundler/setup'
rescue LoadError, StandardError => e
  warn "em server: the project's gems are not installed (#{e.message.lines.first.strip}); run scripts/setup.sh"
  exit 1
end
require 'eventmachine'
require_relative 'config'
require_relative 'static_site'
require_relative 'app'
require_relative 'connection_cap'
require_relative 'deadlines'
require_relative 'connection'
require_relative 'listener'

module EmVsNode
  # Builds the same parts in the same order as the Node server's server.js, and hands them down:
  # the settings (config), the document root (StaticSite), the routes (App), the ConnectionCap,
  # the Deadlines, the connections that use them (Connection, with its RequestGate and replies),
  # and the listener.
  def self.run(argv)
    config = read_config(argv)
    site = StaticSite.new(config.root, CONTRACT)
    app = App.new(site, config.limits, CONTRACT)
    cap = ConnectionCap.new(config.limits['MAX_CONNECTIONS'])
    deadlines = Deadlines.new(config.limits)
    $stdout.sync = true
    EM.epoll
    # The last line of defence: an error that escapes a callback is said, and the loop goes on.
    EM.error_handler { |e| warn "em server: internal error: #{e.class}: #{e.message} (#{e.backtrace&.first})" }
    EM.run do
      EM.attach_server(listening_socket(config, 'em server'), Connection, config.limits, app, cap, deadlines)
      deadlines.start
      %w[INT TERM].each { |signal| Signal.trap(signal) { EM.stop_event_loop } }
      puts "em server listening on http://#{config.host}:#{config.port} (root #{config.root})"
    end
  rescue ConfigError => e
    warn "em server: #{e.message}"
    exit 2
  rescue SystemCallError => e
    warn "em server: cannot load the document root: #{e.message}"
    exit 1
  end
end

EmVsNode.run(ARGV) if $PROGRAM_NAME == __FILE__
