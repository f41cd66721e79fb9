# frozen_string_literal: true

require 'time'
# EventMachine itself (ReplyQueue's timers) is required by its users (connection.rb, server.rb):
# the fiber-scheduler server (ruby/async/) shares ReplyTemplate and HttpDate without loading it.

module EmVsNode
  # The HTTP date of the current second, formatted once per second rather than per reply.
  module HttpDate
    @second = nil
    @value = nil

    class << self
      attr_reader :second

      def now
        second = Process.clock_gettime(Process::CLOCK_REALTIME, :second)
        return @value if second == @second

        @second = second
        @value = Time.at(second).utc.httpdate.freeze
      end
    end
  end

  # One kind of reply: status, headers and body. Replies that never change (/hello, each file,
  # each error) have one template made at start; only Date changes between their replies, so
  # their bytes are built once per second. Content-Length counts bytes and is kept for HEAD; the
  # connection closes when the request asked for it or the status is a closing one (the
  # contract's closing_statuses), never otherwise.
  class ReplyTemplate
    # A body up to this size goes out in one piece with the head: one copy, one send.
    SMALL_BODY = 4096
    KEEP_ALIVE = 1
    HEAD_ONLY = 2

    # status, type and extra_headers: for a server whose library writes the reply's head
    # itself (ruby/async_http/), from the same template.
    attr_reader :body, :closing, :status, :type, :extra_headers

    def initialize(status, type, body, extra_headers = nil, keep_alive_s:)
      @body = body.frozen? ? body : body.dup.freeze
      @status = status
      @type = type
      @extra_headers = extra_headers
      @closing = CONTRACT['closing_statuses'].include?(status)
      extra = extra_headers&.map { |name, value| "#{name}: #{value}\r\n" }&.join
      @prefix = "HTTP/1.1 #{status} #{CONTRACT['status_text'][status.to_s]}\r\n" \
                "Content-Type: #{type}\r\nContent-Length: #{@body.bytesize}\r\n#{extra}Date: "
      @suffixes = ["\r\nConnection: close\r\n\r\n", "\r\nConnection: keep-alive\r\nKeep-Alive: timeout=#{keep_alive_s}\r\n\r\n"]
      @heads = [nil, nil, nil, nil] # by KEEP_ALIVE | HEAD_ONLY, for @second
      @second = nil
    end

    # Whether a reply to a request that asked for keep_alive keeps the connection.
    def keep_alive?(keep_alive)
      keep_alive && !@closing
    end

    # The status line and headers of a reply sent now (keep_alive as keep_alive? said), with a
    # small body in it.
    def head(keep_alive, head_only)
      date = HttpDate.now
      unless @second == HttpDate.second
        @second = HttpDate.second
        @heads = [nil, nil, nil, nil]
      end
      @heads[(keep_alive ? KEEP_ALIVE : 0) | (head_only ? HEAD_ONLY : 0)] ||= build_head(date, keep_alive, head_only)
    end

    # The body when it goes apart from the head: nil for a small body (in the head) or HEAD.
    def body_apart(head_only)
      head_only || @body.bytesize <= SMALL_BODY ? nil : @body
    end

    private

    def build_head(date, keep_alive, head_only)
      head = "#{@prefix}#{date}#{@suffixes[keep_alive ? 1 : 0]}"
      head << @body if !head_only && @body.bytesize <= SMALL_BODY
      head.freeze
    end
  end

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

    def empty?
      @entries.empty?
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

    # A place in line for a reply that will be ready later.
    def reserve
      Entry.new(nil, nil, false, nil).tap { |entry| @entries << entry }
    end

    def fill(entry, head, body, keep_alive)
      return if @closed

      entry.head = head
      entry.body = body
      entry.keep_alive = keep_alive
      pump if @entries.first.equal?(entry)
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
