# frozen_string_literal: true

# The fiber-scheduler server on async-http's own server: Async::HTTP::Server, protocol-http1's
# parser and connection handling, Ruby's Fiber::Scheduler through the async gem; a task (fiber)
# per connection, the library's. Behaviour is defined by contract.json and CONTRACT.md; where
# the library answers otherwise and gives a user no setting to change it, CONTRACT.md ("The
# async-http server") and contract.json (known_differences, scoped to async_http) say so.
#   ruby ruby/async_http/server.rb           (from the project root)
#
# Shared with the other Ruby servers (ruby/shared/): the settings (config.rb), the document root
# (static_site.rb), the routes (app.rb) and the reply templates (reply.rb); with the other
# fiber-scheduler server (ruby/async/): the listening socket, the backends on async-http's
# client and async-redis, the runtime's events and the stop signals. Its own: the application
# async-http calls (application.rb) and the limits set on the library.

# The Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run installs
# no other.
require_relative '../load_gems'
# Built on today's async-http (0.105, the server's Protocol::HTTP1 hooks it subclasses) and
# async (Async::Promise), whose releases ask for Ruby 3.3: on an older Ruby the machine's root
# Gemfile has releases without them, and the start ends here in one line.
if RUBY_VERSION < '3.3'
  warn "async_http server: needs Ruby 3.3 or later (this is #{RUBY_VERSION}); run it on the " \
       'project\'s: npm run runtimes -- install, then .runtimes/ruby33-3.3.8-2/bin/ruby ruby/async_http/server.rb'
  exit 1
end
EmVsNode::Gems.setup('async_http server', :default)
require 'async'
require 'async/http/server'
require 'async/http/endpoint'
require 'async/http/protocol/http1'
require_relative '../async/config'
require_relative '../async/backends'
require_relative '../async/listener'
require_relative '../async/timer'
require_relative '../shared/runtime_events'
require_relative '../async/stop_signals'
require_relative '../shared/static_site'
require_relative '../shared/app'
require_relative '../shared/connection_cap'
require_relative 'application'
require_relative 'protocol'

module EmVsNode
  module AsyncHttpServer
    NAME = 'async_http server'
    DEFAULT_PORT = 8083
    USAGE = 'usage: ruby ruby/async_http/server.rb [--host HOST] [--port PORT] [--root DIR] [--upstream HOST:PORT] [--redis HOST:PORT]'

    # Async::HTTP::Server with the connection cap (MAX_CONNECTIONS: a connection past it is
    # closed at once, as on the other servers) and a quiet end for a connection the library
    # gives up on. The library's #accept ends quietly only after its BadRequest; any other error
    # of a connection (a socket timeout, a client gone mid-upload) ends its task, which the async
    # gem reports on stderr as unhandled: a client's doing, not the server's, so it ends here
    # without a word (Application::ENDED).
    class Server < Async::HTTP::Server
      def initialize(app, endpoint, cap:, **options)
        super(app, endpoint, **options)
        @cap = cap
      end

      def accept(peer, address, task: Async::Task.current)
        return peer.close unless @cap.room?

        @cap.opened
        begin
          super
        rescue *Application::ENDED
          nil
        ensure
          @cap.release
        end
      end
    end

    def self.read_config(argv)
      EmVsNode.read_config(argv, ENV, default_port: DEFAULT_PORT, usage: USAGE)
    end

    # The library's settings from the contract's limits, where it has one: protocol-http1's
    # longest line (a request line or a header line, its CRLF included), and io-endpoint's
    # timeout on each accepted socket (IO#timeout: a read or write that waits longer fails),
    # set to the keep-alive timeout, the one deadline every connection meets. errors: the
    # contract's error replies, for the library's own refusals (protocol.rb).
    def self.endpoint(config, socket, errors)
      protocol = ContractProtocol.new(errors, headers_timeout_s: config.limits['HEADERS_TIMEOUT_MS'] / 1000.0,
                                              maximum_line_length: config.limits['MAX_HEADER_LINE_BYTES'] + 2)
      url = Async::HTTP::Endpoint.parse("http://#{config.host.include?(':') ? "[#{config.host}]" : config.host}:#{config.port}")
      bound = IO::Endpoint::BoundEndpoint.new(url, [socket], timeout: config.limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0)
      [bound, protocol, url.scheme]
    end

    def self.run(argv)
      config = read_config(argv)
      site = StaticSite.new(config.root, CONTRACT)
      upstream, database = AsyncServer.backends(config)
      app = App.new(site, config.limits, CONTRACT, upstream: upstream, database: database)
      cap = ConnectionCap.new(config.limits['MAX_CONNECTIONS'], NAME)
      $stdout.sync = true
      serve(config, app, cap, [upstream, database].compact)
    rescue ConfigError => e
      warn "#{NAME}: #{e.message}"
      exit 2
    rescue SystemCallError => e
      warn "#{NAME}: cannot load the document root: #{e.message}"
      exit 1
    end

    def self.serve(config, app, cap, backends)
      events = nil
      Async do |task|
        AsyncServer.stop_on_signals(task)
        events = RuntimeEvents.start(NAME, &AsyncServer.every(task))
        backends.each { |backend| backend.start(task) }
        # The same listening socket, with the same backlog, as the other servers (listener.rb).
        bound, protocol, scheme = endpoint(config, EmVsNode.listening_socket(config, NAME), app.method(:error))
        server = Server.new(Application.new(app, config.limits), bound, cap: cap, protocol: protocol, scheme: scheme)
        task.async { server.run }
        puts "#{NAME} listening on http://#{config.host}:#{config.port} (root #{config.root})"
      end
    ensure
      events&.stop
    end
  end
end

EmVsNode::AsyncHttpServer.run(ARGV) if $PROGRAM_NAME == __FILE__
