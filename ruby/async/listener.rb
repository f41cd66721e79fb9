# frozen_string_literal: true

require_relative '../shared/listener'

module EmVsNode
  module AsyncServer
    # The listening socket, made as the EventMachine server makes it (ruby/shared/listener.rb: the
    # backlog both servers use, 511), and accepted from on the fiber scheduler: Socket#accept
    # waits in io-event's selector, not in the kernel. Past the connection cap a new connection
    # is closed at once (CONTRACT.md, MAX_CONNECTIONS). Each accepted connection gets its own
    # task (fiber); the block makes its Connection.
    def self.listen(config, cap, task, name, &connection)
      server = EmVsNode.listening_socket(config, name)
      task.async do
        loop { accept_one(server, cap, task, name, connection) }
      end
      server
    end

    # A connection gone before it was accepted is skipped; out of descriptors or memory (the
    # cap keeps the server below the limit, so only what else runs can cause it), the loop says
    # so and tries again a little later rather than at once, in a busy loop.
    def self.accept_one(server, cap, task, name, connection)
      socket, = server.accept
      return socket.close unless cap.room?

      cap.opened
      task.async { connection.call(socket) }
    rescue Errno::ECONNABORTED, Errno::EPROTO
      nil
    rescue Errno::EMFILE, Errno::ENFILE, Errno::ENOBUFS, Errno::ENOMEM => e
      warn "#{name}: cannot accept: #{e.message}; trying again in 100 ms"
      sleep(0.1)
    end
  end
end
