# frozen_string_literal: true

module EmVsNode
  module AsyncServer
    # Reads the requests the RequestGate (ruby/shared/request_gate.rb) lets through: the place that
    # eventmachine_httpserver's C parser has behind the gate in the EventMachine server. The gate
    # has already checked every header section as Node's parser does and hands on only whole,
    # well-formed ones (single spaces in the request line, at most one Content-Length), and a
    # body only where the request reads it (an upload: any other body is cut out), so this needs
    # no checks of its own: it finds each section's end, its method and target, and the length
    # of the body that follows.
    class RequestReader
      CRLF2 = "\r\n\r\n"
      CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i

      def initialize
        @buffer = nil  # the start of a header section not yet whole (the gate hands on whole ones)
        @body_left = 0 # body bytes of the current request still to come
      end

      # Whether a body is still arriving.
      def in_body?
        @body_left.positive?
      end

      # Reads bytes the gate let through; yields, in order, [:request, method, query, length] at
      # the end of each header section (query: what follows the first '?' of the target, or nil;
      # length: the body's, 0 without one), [:body, piece] for each piece of a body, and
      # [:body_end] once a body is whole.
      def read(bytes)
        bytes = @buffer << bytes if @buffer
        @buffer = nil
        pos = 0
        size = bytes.bytesize
        while pos < size
          if @body_left.positive?
            pos = body_piece(bytes, pos, size) { |*event| yield(*event) }
            next
          end
          pos = header_section(bytes, pos, size) { |*event| yield(*event) }
          break if pos.nil?
        end
      end

      private

      def body_piece(bytes, pos, size)
        take = [@body_left, size - pos].min
        yield :body, pos.zero? && take == size ? bytes : bytes.byteslice(pos, take)
        @body_left -= take
        yield :body_end if @body_left.zero?
        pos + take
      end

      # Reads the header section at pos; returns where it ends, or nil when it is not whole yet.
      def header_section(bytes, pos, size)
        pos += 1 while [10, 13].include?(bytes.getbyte(pos)) # the gate skips these; so does this
        return size if pos >= size

        stop = bytes.index(CRLF2, pos)
        if stop.nil?
          @buffer = bytes.byteslice(pos, size - pos)
          return nil
        end
        line_end = bytes.index("\r\n", pos)
        method, target = bytes.byteslice(pos, line_end - pos).split(' ', 3)
        query_at = target.index('?')
        length = content_length(bytes, line_end, stop)
        yield :request, method, query_at && target.byteslice(query_at + 1, target.bytesize), length
        @body_left = length
        stop + 4
      end

      def content_length(bytes, from, stop)
        section = bytes.byteslice(from, stop - from + 2)
        match = CONTENT_LENGTH.match(section)
        match ? match[1].to_i : 0
      end
    end
  end
end
