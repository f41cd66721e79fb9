# frozen_string_literal: true

# The fiber-scheduler server: Ruby's Fiber::Scheduler through the async gem (io-event's epoll
# selector), one process, one event loop, a task (fiber) per connection. Behaviour is defined by
# contract.json and CONTRACT.md; where it differs from the other two, CONTRACT.md
# "Known differences" says so.
#   ruby ruby/async/server.rb           (from the project root)
#
# It shares with the EventMachine server the Ruby code that is no event loop's (ruby/shared/): the
# settings, the document root, the request gate (Node's checks), the routes, the reply templates
# and their order, what a connection does with the gate's steps and the routes' replies, the
# deadlines' sweep, the runtime's events, the listening socket and the connection cap, so that
# em against async compares the runtimes, not two implementations of the contract. Its own: the
# connection and its reply queue on fibers, the request reader behind the gate, the fiber
# scheduler's loop and timer (reactor.rb), the backends on async-http and async-redis. Why not
# async-http's server (protocol-http1): bare_server.rb.

# The Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run installs
# no other.
require_relative '../load_gems'
EmVsNode::Gems.setup('async server', :default)
require_relative 'ruby31' if RUBY_VERSION < '3.2'
require 'async'
require_relative '../shared/parts'
require_relative 'backends'
require_relative '../shared/deadlines'
require_relative 'connection'
require_relative 'listener'
require_relative 'reactor'

module EmVsNode
  module AsyncServer
    # The parts every Ruby server builds (EmVsNode.run_server: the settings, the document root,
    # the backends on async-http's client and async-redis, each only when configured and its
    # client library loaded only then, the routes, the ConnectionCap), then, in the same order
    # as the other two servers, the Deadlines, the connections that use them and the listener,
    # on the fiber scheduler's loop (reactor: with RUNTIME_EVENTS_FILE set, the runtime's events).
    def self.run(argv)
      EmVsNode.run_server('async', argv, backends: method(:backends)) do |parts|
        config = parts.config
        deadlines = Deadlines.new(config.limits)
        reactor('async server', parts.backends) do |task|
          deadlines.start(&every(task))
          listen(config, parts.cap, task, 'async server') do |socket|
            Connection.new(socket, config.limits, parts.app, parts.cap, deadlines).run
          end
          EmVsNode.say_listening('async server', config)
        end
      end
    end
  end
end

EmVsNode::AsyncServer.run(ARGV) if $PROGRAM_NAME == __FILE__
