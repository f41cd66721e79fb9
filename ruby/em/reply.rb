# frozen_string_literal: true

require 'eventmachine'
require_relative '../shared/reply'

module EmVsNode
  # Sends a connection's replies in the order their requests arrived, as HTTP/1.1 pipelining
  # requires, though a /delay reply is ready later than the requests behind it. Back-pressure:
  # it hands EventMachine at most max_unsent bytes that the client has not yet taken; the rest
  # of a large body, and the replies behind it, wait here (sharing the template's frozen body,
  # not copying it) until the client reads. While replies wait, the connection reads no more
  # requests (see Connection#receive_data). EventMachine says nothing when its buffer drains
  # (and its pause stops writes as well as reads), so the queue looks again soon after: the
  # next tick, then backing off to 50 ms. A fast reader is fed within a loop turn or two; a
  # stalled one costs a check every 50 ms.
  class ReplyQueue
    include ReplyOrder

    Entry = Struct.new(:head, :body, :keep_alive, :sent)
    DRAIN_CHECKS_S = [0, 0, 0.001, 0.002, 0.005, 0.01, 0.02].freeze
    DRAIN_CHECK_MAX_S = 0.05

    def initialize(connection, max_unsent)
      @connection = connection
      @max_unsent = max_unsent
      @entries = []
      @closed = false
      @backed_up = false
      @drain_check_pending = false
      @drain_round = 0
      @closing = false
    end

    # Whether replies wait for the client to read; the connection then holds its input.
    def backed_up?
      @backed_up
    end

    # Sends a reply that is ready now, or queues it behind replies still pending. A reply in one
    # piece with nothing ahead of it and room for it goes straight out (the common case).
    def deliver(head, body, keep_alive)
      return if @closed
      return transmit(head, keep_alive) if body.nil? && @entries.empty? && room >= head.bytesize

      @entries << Entry.new(head, body, keep_alive, nil)
      pump if @entries.size == 1
    end

    # The connection closes once the replies already due are out, whatever they say.
    def close_when_sent
      @closing = true
      finish if @entries.empty?
    end

    # The connection is gone: nothing more will be sent.
    def close
      @closed = true
      @entries.clear
    end

    private

    # A reserved place is filled: what is ready at the front goes out.
    def filled(entry)
      pump if @entries.first.equal?(entry)
    end

    def pump
      while (entry = @entries.first)&.head
        space = room
        return wait_for_drain unless space.positive? && wrote_all?(entry, space)

        @entries.shift
        return finish unless entry.keep_alive
      end
      return finish if @closing && @entries.empty?

      caught_up
    end

    def room
      @max_unsent - @connection.get_outbound_data_size
    end

    def transmit(head, keep_alive)
      @connection.send_data(head)
      finish unless keep_alive
    end

    # The last reply of a closing connection is out: close once EventMachine has written it.
    def finish
      @connection.close_connection_after_writing
      close
    end

    # Writes what fits of an entry; whether all of it went.
    def wrote_all?(entry, room)
      unless entry.sent
        @connection.send_data(entry.head)
        entry.sent = 0
        room -= entry.head.bytesize
      end
      body = entry.body
      return true if body.nil?

      left = body.bytesize - entry.sent
      return false unless room.positive?

      piece = [left, room].min
      @connection.send_data(piece == body.bytesize ? body : body.byteslice(entry.sent, piece))
      entry.sent += piece
      piece == left
    end

    def wait_for_drain
      @backed_up = true
      return if @drain_check_pending

      @drain_check_pending = true
      delay = DRAIN_CHECKS_S[@drain_round] || DRAIN_CHECK_MAX_S
      @drain_round += 1
      delay.zero? ? EM.next_tick { drain_check } : EM.add_timer(delay) { drain_check }
    end

    # Refills once the client has taken at least half of what was handed over, so that a slow
    # reader gets few large writes rather than many small ones (and no busy loop).
    def drain_check
      @drain_check_pending = false
      return if @closed
      return wait_for_drain if @connection.get_outbound_data_size > @max_unsent / 2

      @drain_round = 0
      pump
    end

    # Tells the connection when every reply is out (its idle timeout may start) and when the
    # replies that held up its input have been taken.
    def caught_up
      @connection.replies_sent if @entries.empty?
      return unless @backed_up

      @backed_up = false
      @connection.replies_caught_up
    end
  end
end
