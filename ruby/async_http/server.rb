# frozen_string_literal: true

# The fiber-scheduler server on async-http's own server: Async::HTTP::Server, protocol-http1's
# parser and connection handling, Ruby's Fiber::Scheduler through the async gem; a task (fiber)
# per connection, the library's. Behaviour is defined by contract.json and CONTRACT.md; where
# the library answers otherwise and gives a user no setting to change it, CONTRACT.md ("The
# async-http server") and contract.json (known_differences, scoped to async_http) say so.
#   ruby ruby/async_http/server.rb           (from the project root)
#
# Shared with the other Ruby servers (ruby/shared/): the settings, the document root, the
# routes, the reply templates, the listening socket, the connection cap and the runtime's
# events; with the other fiber-scheduler server (ruby/async/): the backends on async-http's
# client and async-redis, and the scheduler's loop with its stop signals (reactor.rb). Its own:
# the application async-http calls (application.rb) and the limits set on the library.

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
require_relative '../shared/parts'
require_relative '../shared/listener'
require_relative '../async/backends'
require_relative '../async/reactor'
require_relative 'application'
require_relative 'protocol'

module EmVsNode
  module AsyncHttpServer
    NAME = 'async_http server'

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

    # The library's settings from the contract's limits, where it has one: protocol-http1's
    # maximum_line_length (a request line or a header line whose CR LF starts at it or later is
    # too long: MAX_HEADER_LINE_BYTES + 1 lets a line of MAX_HEADER_LINE_BYTES through, refuses
    # one byte more, as Node's parser does), and io-endpoint's
    # timeout on each accepted socket (IO#timeout: a read or write that waits longer fails),
    # set to the keep-alive timeout, the one deadline every connection meets. errors: the
    # contract's error replies, for the library's own refusals (protocol.rb).
    def self.endpoint(config, socket, errors)
      protocol = ContractProtocol.new(errors, headers_timeout_s: config.limits['HEADERS_TIMEOUT_MS'] / 1000.0,
                                              maximum_line_length: config.limits['MAX_HEADER_LINE_BYTES'] + 1)
      url = Async::HTTP::Endpoint.parse("http://#{config.host.include?(':') ? "[#{config.host}]" : config.host}:#{config.port}")
      bound = IO::Endpoint::BoundEndpoint.new(url, [socket], timeout: config.limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0)
      [bound, protocol, url.scheme]
    end

    # The parts every Ruby server builds (EmVsNode.run_server: the settings, the document root,
    # the backends of the other fiber-scheduler server, the routes, the ConnectionCap), then the
    # library's server over the same listening socket, on the fiber scheduler's loop as the
    # other one runs it (AsyncServer.reactor).
    def self.run(argv)
      EmVsNode.run_server('async_http', argv, backends: AsyncServer.method(:backends)) do |parts|
        config = parts.config
        AsyncServer.reactor(NAME, parts.backends) do |task|
          # The same listening socket, with the same backlog, as the other servers (listener.rb).
          bound, protocol, scheme = endpoint(config, EmVsNode.listening_socket(config, NAME), parts.app.method(:error))
          server = Server.new(Application.new(parts.app, config.limits), bound, cap: parts.cap, protocol: protocol, scheme: scheme)
          task.async { server.run }
          EmVsNode.say_listening(NAME, config)
        end
      end
    end
  end
end

EmVsNode::AsyncHttpServer.run(ARGV) if $PROGRAM_NAME == __FILE__
