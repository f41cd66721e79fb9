# frozen_string_literal: true

require 'async/notification'
require_relative '../shared/reply' # ReplyOrder

module EmVsNode
  module AsyncServer
    # A connection's replies, in the order their requests arrived (HTTP/1.1 pipelining), though
    # a /delay or backend reply is ready later than the requests behind it: its place is
    # reserved and filled (ReplyOrder). One writer task per connection takes them in turn
    # (#each_ready) and writes them; a write the client does not take waits in the fiber
    # scheduler, not in memory of ours. Back-pressure, as Node's high-water mark: while the replies not yet written
    # exceed max_unsent bytes, the connection reads no more requests (#wait_for_room). A file's
    # body is the template's frozen string, shared, never copied.
    class ReplyQueue
      include ReplyOrder

      Entry = Struct.new(:head, :body, :keep_alive)

      def initialize(max_unsent)
        @max_unsent = max_unsent
        @entries = []
        @unsent = 0 # bytes of the replies ready and not yet written
        @closing = false
        @closed = false
        @ready = Async::Notification.new # a reply is ready, or the queue closes
        @room = Async::Notification.new  # replies were written
      end

      def deliver(head, body, keep_alive)
        return if @closed

        @entries << Entry.new(head, body, keep_alive)
        @unsent += head.bytesize + (body&.bytesize || 0)
        @ready.signal
      end

      # The connection closes once the replies already due are out, whatever they say.
      def close_when_sent
        @closing = true
        @ready.signal
      end

      # The connection is gone: nothing more will be sent.
      def close
        @closed = true
        @entries.clear
        @ready.signal
        @room.signal
      end

      # Waits (the reading task) while the replies not yet written exceed max_unsent bytes.
      def wait_for_room
        @room.wait while @unsent > @max_unsent && !@closed
      end

      # The writer task's loop: yields each reply in turn once it is ready; calls idle when
      # every reply is out; returns when the connection is to close (a reply that does not keep
      # it, or close_when_sent and nothing left) or is gone.
      def each_ready(idle)
        until @closed
          entry = @entries.first
          if entry.nil?
            return if @closing

            idle.call
            @ready.wait
          elsif entry.head.nil?
            @ready.wait
          else
            yield entry
            written(entry)
            return unless entry.keep_alive
          end
        end
      end

      private

      # A reserved place is filled: its bytes count as unsent, and the writer wakes if it is next.
      def filled(entry)
        @unsent += entry.head.bytesize + (entry.body&.bytesize || 0)
        @ready.signal if @entries.first.equal?(entry)
      end

      def written(entry)
        @entries.shift
        @unsent -= entry.head.bytesize + (entry.body&.bytesize || 0)
        @room.signal if @unsent <= @max_unsent
      end
    end
  end
end
