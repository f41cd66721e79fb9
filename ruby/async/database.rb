# frozen_string_literal: true

require 'async/redis'
require_relative 'backends'

module EmVsNode
  module AsyncServer
    # Redis for /db through async-redis (Async::Redis::Client): GET key_prefix + id, over its
    # pool of at most `size` connections (contract.json backends db_pool). What differs from the
    # other two servers (CONTRACT.md, "Backends"):
    # - async-redis sends a command only when a connection is free, one at a time on it, where
    #   node-redis and em-hiredis pipeline every command on one connection: so it needs a pool.
    #   Not one connection: async-pool wakes every waiting fiber when a connection is released,
    #   and all but one wait again, so a queue of calls on one connection costs CPU in proportion
    #   to its length (at 2,000 req/s: 819-1,056 served, 0.9-1.2 ms CPU a request; with the
    #   pool, 1,997-2,000 and 0.39-0.43 ms);
    # - it connects when a command needs a connection, not on a 500 ms timer: while Redis is down
    #   each call fails at once (503), and the first one after it is back reconnects;
    # - a command past BACKEND_TIMEOUT_MS closes its connection (async-redis would hand the late
    #   reply to the next command on it), so the next call opens another.
    class Database
      include BackendCalls

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

      def initialize(host, port, size:, key_prefix:, timeout_ms:)
        # concurrency 1, as upstream.rb's pool: with async-pool's default (as many as the limit)
        # tasks opening connections at once each saw room below the limit: 127 opened for 64.
        @client = Client.new(Async::Redis::Endpoint.remote(host, port), limit: size, concurrency: 1)
        @key_prefix = key_prefix
        @timeout_s = timeout_ms / 1000.0
      end

      # The stored value (a String) of row id, or nil: missing, Redis down, failing or late.
      def get(id, &done)
        key = "#{@key_prefix}#{id}"
        call_in_task(done) { @client.call('GET', key) }
      end
    end
  end
end
