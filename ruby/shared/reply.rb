# frozen_string_literal: true

require 'time'

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

  # A connection's replies in the order their requests arrived (HTTP/1.1 pipelining), though a
  # /delay or backend reply is ready later than the requests behind it: its place is reserved,
  # and filled when it is ready. Each event loop's ReplyQueue (its Entry: head, body,
  # keep_alive, then its own) sends them, and says what a filled place sets going (#filled).
  module ReplyOrder
    def empty?
      @entries.empty?
    end

    # A place in line for a reply that will be ready later.
    def reserve
      self.class::Entry.new(nil, nil, false).tap { |entry| @entries << entry }
    end

    def fill(entry, head, body, keep_alive)
      return if @closed

      entry.head = head
      entry.body = body
      entry.keep_alive = keep_alive
      filled(entry)
    end
  end
end
