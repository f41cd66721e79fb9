# frozen_string_literal: true

# Reference: the bare runtime. async-http's own server (Async::HTTP::Server, protocol-http1's
# parser) on the fiber scheduler, answering /hello and nothing else: no gate, no router, no
# files, no limits beyond the library's. The project server's ratio to this one is what its
# gate, routing and file layer cost (and what its own connection code costs against the
# library's). HTTP/1.1 connections stay open as the library keeps them; every reply has Date,
# Content-Length and Content-Type.
#
# Why the project server (server.rb) does not run on this server (measured here, protocol-http1
# 0.34.0 with async-http 0.88.0): it reads chunked request bodies (the contract refuses them:
# 411), answers a request it cannot parse with a bare 400 (no Date, no Content-Type, and a
# warning on stderr for each), and has no header, body or request deadline of its own (the
# contract: 408 and close); the application sees a request only after the library's own
# checks, so the contract's checks could not be made in Node's order. The project server reads
# the socket itself, behind the same request gate as the EventMachine server.

# The Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run installs
# no other.
require_relative '../load_gems'
EmVsNode::Gems.setup('async bare server', :default)
require_relative 'ruby31' if RUBY_VERSION < '3.2'
require 'async'
require 'async/http/server'
require 'async/http/endpoint'
require 'protocol/http/response'
require_relative '../shared/config'
require_relative '../shared/listener'
require_relative '../shared/reply' # HttpDate: the Date value formatted once per second, as Node does
require_relative 'reactor'

module EmVsNode
  module AsyncServer
    HELLO = CONTRACT['hello_body']

    # Says Connection: close when the library will close after it (HTTP/1.0 without keep-alive;
    # it does not say so itself), so that load generators do not send on a closing connection.
    def self.bare_reply(request)
      found = request.path == '/hello'
      headers = [['content-type', 'text/plain'], ['date', HttpDate.now]]
      connection = request.headers['connection'].to_s.downcase
      headers << %w[connection close] if request.version == 'HTTP/1.0' && !connection.include?('keep-alive')
      Protocol::HTTP::Response[found ? 200 : 404, headers, [found ? HELLO : "Not Found\n"]]
    end
  end
end

config = EmVsNode.read_config_or_exit(ARGV, server: 'async', who: 'async bare server')
$stdout.sync = true
EmVsNode::AsyncServer.reactor('async bare server') do |task|
  # The same listening socket, with the same backlog, as the project servers (listener.rb).
  socket = EmVsNode.listening_socket(config, 'async bare server')
  endpoint = Async::HTTP::Endpoint.parse("http://#{config.host}:#{config.port}")
  bound = IO::Endpoint::BoundEndpoint.new(endpoint, [socket])
  server = Async::HTTP::Server.for(bound, protocol: endpoint.protocol, scheme: endpoint.scheme) do |request|
    EmVsNode::AsyncServer.bare_reply(request)
  end
  task.async { server.run }
  puts "async bare server listening on http://#{config.host}:#{config.port}"
end
