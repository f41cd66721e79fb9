# frozen_string_literal: true

require_relative '../em/listener'

module EmVsNode
  module AsyncServer
    # The listening socket, made as the EventMachine server makes it (ruby/em/listener.rb: the
    # backlog both servers use, 511), and accepted from on the fiber scheduler: Socket#accept
    # waits in io-event's selector, not in the kernel. Past the connection cap a new connection
    # is closed at once (CONTRACT.md, MAX_CONNECTIONS). Each accepted connection gets its own
    # task (fiber); the block makes its Connection.
    def self.listen(config, cap, task, name, &connection)
      server = EmVsNode.listening_socket(config, name)
      task.async do
        loop do
          socket, = server.accept
          next socket.close unless cap.room?

          cap.opened
          task.async { connection.call(socket) }
        end
      end
      server
    end
  end
end
