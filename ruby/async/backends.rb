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
  end
end
