# frozen_string_literal: true

require 'socket'
require_relative 'config'

module EmVsNode
  # EM.start_server listens with a backlog of 100 (hard-coded in em.cpp); Node listens with 511.
  # Under bursts of new connections the shorter queue drops SYNs and clients wait a second to
  # retry, which would be measured as EventMachine's slowness. So the socket is made here, with
  # the backlog every server uses, and handed to the server's loop (EM.attach_server; on the
  # fiber scheduler, its accepting task or async-http's server). Exits with one line on failure.
  def self.listening_socket(config, name)
    server = Socket.new(config.host.include?(':') ? :INET6 : :INET, :STREAM)
    server.setsockopt(:SOCKET, :REUSEADDR, true)
    server.bind(Addrinfo.tcp(config.host, config.port))
    server.listen(CONTRACT['listen_backlog'])
    server
  rescue SystemCallError, SocketError => e
    warn "#{name}: cannot listen on #{config.host}:#{config.port}: #{e.message} (choose another port with --port)"
    exit 1
  end
end
