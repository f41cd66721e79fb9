# frozen_string_literal: true

require_relative '../shared/config'

module EmVsNode
  # The fiber-scheduler server (ruby/async/): the same settings as the other two, read by the
  # same code as the EventMachine server (ruby/shared/config.rb: flags, then the environment, then
  # contract.json), with its own default port and usage line.
  module AsyncServer
    DEFAULT_PORT = 8082
    USAGE = 'usage: ruby ruby/async/server.rb [--host HOST] [--port PORT] [--root DIR] [--upstream HOST:PORT] [--redis HOST:PORT]'

    def self.read_config(argv = ARGV, env = ENV)
      EmVsNode.read_config(argv, env, default_port: DEFAULT_PORT, usage: USAGE)
    end
  end
end
