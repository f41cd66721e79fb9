# frozen_string_literal: true

require 'async/redis'

module EmVsNode
  module AsyncServer
    # Redis for /db through async-redis (Async::Redis::Client): GET key_prefix + id, on one
    # connection (its pool's limit), as the other two servers use one. What differs from them
    # (CONTRACT.md, "Backends"; contract.json known_differences `redis-one-at-a-time`):
    # - async-redis sends a command only when the connection is free: commands wait their turn
    #   rather than being pipelined on it;
    # - it connects when a command needs a connection, not on a 500 ms timer: while Redis is down
    #   each call fails at once (503), and the first one after it is back reconnects;
    # - a command past BACKEND_TIMEOUT_MS closes its connection (async-redis would hand the late
    #   reply to the next command on it), so the next call opens another.
    class Database
      Call = Struct.new(:task) do
        def cancel = nil
      end

      # Async::Redis::Client's call, but a connection whose reply was not read whole (a command
      # stopped at its deadline) is closed, so that the pool retires it.
      class Client < Async::Redis::Client
        def call(*arguments)
          @pool.acquire do |connection|
            whole = false
            begin
              connection.write_request(arguments)
              connection.flush
              reply = connection.read_response
              whole = true
              reply
            rescue Protocol::Redis::ServerError
              whole = true
              raise
            ensure
              connection.close unless whole
            end
          end
        end
      end

      def initialize(host, port, key_prefix:, timeout_ms:)
        @client = Client.new(Async::Redis::Endpoint.remote(host, port), limit: 1)
        @key_prefix = key_prefix
        @timeout_s = timeout_ms / 1000.0
      end

      def start(task)
        @task = task
      end

      # The stored value (a String) of row id, or nil: missing, Redis down, failing or late.
      def get(id, &done)
        deadline = now + @timeout_s
        Call.new(@task.async { done.call(fetch("#{@key_prefix}#{id}", deadline)) })
      end

      private

      def fetch(key, deadline)
        Async::Task.current.with_timeout(deadline - now) { @client.call('GET', key) }
      rescue Async::TimeoutError, StandardError
        nil
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
