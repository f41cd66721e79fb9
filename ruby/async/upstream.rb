# frozen_string_literal: true

require 'async/http/client'
require 'async/http/endpoint'
require 'async/http/protocol/http11'
require_relative 'backends'

module EmVsNode
  module AsyncServer
    # The upstream of /upstream through async-http's client (Async::HTTP::Client), HTTP/1.1
    # over its own keep-alive pool (async-pool): at most `size` connections, an idle one reused,
    # the one used last first (the pool hands out its last available: Node's Agent's 'lifo');
    # requests beyond them wait for one. The retry is the contract's (CONTRACT.md, "Backends"),
    # not async-http's (Client below). A call waiting for a pool connection stays in line when
    # its client leaves: it runs, bounded by its deadline, and its result is dropped.
    # A call past BACKEND_TIMEOUT_MS (from the request's arrival, the wait for a connection
    # included) is stopped; async-http closes its connection (an interrupted HTTP/1.1 exchange
    # is never reused). Its result is the body of the upstream's 200, else nil.
    class Upstream
      include BackendCalls

      # Async::HTTP::Client's call with the contract's retry instead of async-http's (which
      # sends an idempotent request again after a failure on any connection, fresh ones too, up
      # to `retries` attempts): a request that fails before any reply on a connection that had
      # served one before (a keep-alive connection the upstream closed while idle) is sent once
      # more, after the pool's other idle connections are dropped too (an upstream restart
      # closes them all); one that fails on a fresh connection is not. As the other two servers.
      class Client < Async::HTTP::Client
        # How a request fails on a connection the upstream closed: a socket's error or end, or the
        # library's own word for a request it could not write, which changed with its releases:
        # async-http 0.88's Protocol::RequestFailed (Ruby 3.1's Gemfile), protocol-http's
        # RefusedError in later ones (Ruby 3.3's), and its RemoteError for a reset while reading.
        STALE = [SocketError, IOError, EOFError, Errno::ECONNRESET, Errno::EPIPE,
                 *%w[Async::HTTP::Protocol::RequestFailed Protocol::HTTP::RefusedError Protocol::HTTP::RemoteError]
                   .filter_map { |name| Object.const_get(name) if Object.const_defined?(name) }].freeze

        def call(request)
          request.scheme ||= scheme
          request.authority ||= authority
          retried = false
          begin
            connection = @pool.acquire
            reused = connection.count >= 1 # the responses it has read
            response = make_response(request, connection, 1)
            connection = nil # the response holds it now, and releases it
            response
          rescue *STALE
            @pool.release(connection) if connection
            connection = nil
            raise if retried || !reused

            retried = true
            @pool.prune
            retry
          ensure
            @pool.release(connection) if connection
          end
        end
      end

      def initialize(host, port, size:, timeout_ms:)
        authority = host.include?(':') ? "[#{host}]:#{port}" : "#{host}:#{port}"
        protocol = Async::HTTP::Protocol::HTTP11
        endpoint = Async::HTTP::Endpoint.parse("http://#{authority}", protocol: protocol)
        # concurrency 1: one task at a time may open a connection. With async-pool's default
        # (as many as the limit) each of 64 tasks saw fewer than 64 connections while the others'
        # connects were under way, and a busy machine's npm test saw 86 open at once.
        @client = Client.new(endpoint, protocol: protocol, limit: size, concurrency: 1)
        @timeout_s = timeout_ms / 1000.0
      end

      def get(path, &done)
        call_in_task(done) do
          response = @client.get(path)
          begin
            body = response.read || ''
            response.status == 200 ? body : nil
          ensure
            response.close
          end
        end
      end
    end
  end
end
