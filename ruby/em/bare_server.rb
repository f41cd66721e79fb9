# frozen_string_literal: true

# Reference: the bare runtime. EventMachine with eventmachine_httpserver answering /hello and
# nothing else, as in the library's own example: no gate, no router, no files, no limits. The
# project server's ratio to this one is what its routing, gate and file layer cost. It keeps
# HTTP/1.1 connections open (the example closes every one), so keep-alive scenarios compare alike.
# Minimal, but correct HTTP/1.1: every reply has Date, Content-Length and Content-Type, and
# says Connection: close when the connection closes after it (HTTP/1.0 without keep-alive,
# Connection: close asked, or a 404, which the library always closes); without that header
# clients such as wrk send the next request on a connection being closed and count an error.

# Only the Gemfile's default group (this Ruby's Gemfile: ruby/load_gems.rb): the set-up of a run
# installs no other (test, profile).
require_relative '../load_gems'
EmVsNode::Gems.setup('em bare server', :default)
require 'eventmachine'
require 'evma_httpserver'
require_relative '../shared/config'
require_relative '../shared/listener'
require_relative '../shared/reply' # HttpDate: the Date value formatted once per second, as Node does
require_relative '../shared/runtime_events'

module EmVsNode
  class BareConnection < EM::Connection
    include EM::HttpServer

    HELLO = CONTRACT['hello_body']

    def post_init
      super
      no_environment_strings
    end

    def process_http_request
      response = EM::DelegatedHttpResponse.new(self)
      found = @http_path_info == '/hello'
      keep_open = found && keep_alive?
      response.status = found ? 200 : 404
      response.content_type 'text/plain'
      response.content = found ? HELLO : "Not Found\n"
      response.headers['Date'] = HttpDate.now
      response.headers['Connection'] = keep_open ? 'keep-alive' : 'close'
      response.keep_connection_open(keep_open)
      response.send_response
    end

    private

    def keep_alive?
      connection = @http_headers.split("\0").grep(/\Aconnection:/i).join(',').downcase
      @http_protocol == 'HTTP/1.1' ? !connection.include?('close') : connection.include?('keep-alive')
    end
  end
end

config = EmVsNode.read_config_or_exit(ARGV, server: 'em', who: 'em bare server')
$stdout.sync = true
EM.epoll
events = nil
EM.run do
  events = EmVsNode::RuntimeEvents.start('em bare server', &EM.method(:add_periodic_timer))
  # The same listen backlog as the project servers (see listener.rb).
  EM.attach_server(EmVsNode.listening_socket(config, 'em bare server'), EmVsNode::BareConnection)
  %w[INT TERM].each { |signal| Signal.trap(signal) { EM.stop_event_loop } }
  puts "em bare server listening on http://#{config.host}:#{config.port}"
end
events&.stop
