# frozen_string_literal: true

require 'async/http/client'
require 'async/http/endpoint'
require 'async/http/protocol/http11'

module EmVsNode
  module AsyncServer
    # The upstream of /upstream through async-http's client (Async::HTTP::Client), HTTP/1.1
    # over its own keep-alive pool (async-pool): at most `size` connections, an idle one reused,
    # the one used last first (the pool hands out its last available: Node's Agent's 'lifo');
    # requests beyond them wait for one. What differs from the pool of the other two servers
    # (CONTRACT.md, "Backends"; contract.json known_differences `upstream-retry`):
    # - async-http retries an idempotent request that fails on any connection, fresh or reused;
    #   retries: 2 (its count of attempts) sends it once more, as the others do after a stale
    #   connection, but also after a failure on a fresh one;
    # - a call waiting for a pool connection stays in line when its client leaves: it runs,
    #   bounded by its deadline, and its result is dropped.
    # A call past BACKEND_TIMEOUT_MS (from the request's arrival, the wait for a connection
    # included) is stopped; async-http closes its connection (an interrupted HTTP/1.1 exchange
    # is never reused). Its result is the body of the upstream's 200, else nil.
    class Upstream
      # The reply callable's call: its result is dropped once the connection is gone (its
      # ReplyQueue is closed), so cancelling needs nothing here.
      Call = Struct.new(:task) do
        def cancel = nil
      end

      def initialize(host, port, size:, timeout_ms:)
        authority = host.include?(':') ? "[#{host}]:#{port}" : "#{host}:#{port}"
        protocol = Async::HTTP::Protocol::HTTP11
        endpoint = Async::HTTP::Endpoint.parse("http://#{authority}", protocol: protocol)
        @client = Async::HTTP::Client.new(endpoint, protocol: protocol, limit: size, retries: 2)
        @timeout_s = timeout_ms / 1000.0
      end

      # The calls run as tasks of the server's (not of a connection's, whose end would stop them).
      def start(task)
        @task = task
      end

      def get(path, &done)
        deadline = now + @timeout_s
        Call.new(@task.async { done.call(fetch(path, deadline)) })
      end

      private

      def fetch(path, deadline)
        Async::Task.current.with_timeout(deadline - now) do
          response = @client.get(path)
          begin
            body = response.read || ''
            response.status == 200 ? body : nil
          ensure
            response.close
          end
        end
      rescue Async::TimeoutError, StandardError
        nil
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
