# frozen_string_literal: true

require_relative '../shared/config'

module EmVsNode
  module AsyncServer
    # The backends of /upstream and /db on async-http's client and async-redis, for both servers
    # on the fiber scheduler (ruby/async/server.rb, ruby/async_http/server.rb): each only when
    # configured, and its client library loaded only then (CONTRACT.md, "Loaded only when
    # configured"). Each is started with the task its calls run under (#start).
    def self.backends(config)
      timeout_ms = config.limits['BACKEND_TIMEOUT_MS']
      upstream = config.upstream && begin
        require_relative 'upstream'
        Upstream.new(config.upstream.host, config.upstream.port,
                     size: CONTRACT['backends']['upstream_pool'], timeout_ms: timeout_ms)
      end
      database = config.redis && begin
        require_relative 'database'
        Database.new(config.redis.host, config.redis.port,
                     size: CONTRACT['backends']['db_pool'], key_prefix: CONTRACT['backends']['db_key_prefix'], timeout_ms: timeout_ms)
      end
      [upstream, database]
    end

    # What the two backends' calls are alike (Upstream#get, Database#get): each runs as a task of
    # the server's (#start: not of a connection's, whose end would stop it), stopped past
    # BACKEND_TIMEOUT_MS from the call (the wait for a pool's connection included). Its result
    # is dropped once the connection is gone (its ReplyQueue is closed), so cancelling needs
    # nothing here.
    module BackendCalls
      Call = Struct.new(:task) do
        def cancel = nil
      end

      def start(task)
        @task = task
      end

      private

      # Runs the block as the call's task and tells done what it returned: nil when it failed or
      # was late. Returns the call.
      def call_in_task(done, &work)
        deadline = now + @timeout_s
        Call.new(@task.async { done.call(before(deadline, work)) })
      end

      def before(deadline, work)
        Async::Task.current.with_timeout(deadline - now) { work.call }
      rescue Async::TimeoutError, StandardError
        nil
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
