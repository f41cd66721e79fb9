# frozen_string_literal: true

module EmVsNode
  module AsyncServer
    # SIGINT and SIGTERM stop the server: the top task is stopped, and every connection, timer
    # and backend client under it with it; then the reactor returns. The traps only write a byte
    # to a pipe that a task of the reactor waits on. Not an Interrupt raised from a trap, nor
    # Ruby's default SIGINT handler: the scheduler's loop masks signal exceptions
    # (Thread.handle_interrupt(SignalException => :never)), and one queued just before the
    # selector blocks can leave it waiting with nothing to wake it (https://github.com/socketry/io-event/issues/204, later
    # than the io-event 1.11.2 that Ruby 3.1's Gemfile locks): the async server was still running
    # 30 s after a signal in 2 of 4 fresh-clone runs of npm test. A trap is not such an exception,
    # and the pipe's byte wakes the selector, with every io-event.
    def self.stop_on_signals(top)
      reader, writer = IO.pipe
      %w[INT TERM].each { |signal| Signal.trap(signal) { writer.write_nonblock('.', exception: false) } }
      # Transient: the top task does not stop it (it is the one stopping), nor waits for it.
      top.async(transient: true) do
        reader.wait_readable
        top.stop
      end
    end
  end
end
