# frozen_string_literal: true

require_relative 'static_site'

module EmVsNode
  # Sees every byte before eventmachine_httpserver's C parser does. That parser decides on a
  # request only once its body has arrived, knows five methods, ignores Transfer-Encoding and
  # answers its own errors without Content-Length or Date. The gate finds where each request's
  # header section ends, applies the checks the Node server's http parser applies (and the
  # contract's limits) there, before any body byte is read, and only then lets the parser see
  # the request. Requests it refuses, and requests in a method the parser does not know, it
  # answers itself and never shows the parser.
  class RequestGate
    # What the connection needs to know of a request the parser will dispatch.
    Head = Struct.new(:keep_alive, :upload, :upload_bytes, :digest)
    # A request the gate answers itself (the connection then closes): its status, and the Allow
    # value for a 405.
    Answer = Struct.new(:status, :allow)

    PARSER_METHODS = %w[GET POST PUT DELETE HEAD].freeze
    CRLF2 = "\r\n\r\n"
    REQUEST_LINE = %r{\A([!-~]+) ([!-~]+) HTTP/1\.([01])\z}
    HEADER_LINE = /\A([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*\z/n
    MAX_LEADING_BLANKS = 12
    LINE_BREAK_BYTES = [10, 13].freeze
    NOTHING = [].freeze

    attr_reader :heads

    def initialize(limits, known_methods, allow_for)
      @limits = limits
      @known_methods = known_methods.to_h { |m| [m, true] }
      @allow_for = allow_for # lambda: decoded path → Allow value or nil
      @heads = []            # requests shown to the parser and not yet dispatched, oldest first
      @partial = nil         # the start of a header section still arriving
      @body_left = 0         # body bytes of the current request still to come
      @stopped = false       # after a refused or final request nothing more is read
    end

    # Splits an arriving chunk into what the parser may see and what the gate answers. Returns
    # :pass when the parser may see the whole chunk unchanged (the common case), otherwise an
    # array of [:feed, String], [:continue] and [:answer, Answer] steps, in request order. After
    # an answer the connection closes, so nothing more is read.
    def scan(data)
      return NOTHING if @stopped && @body_left.zero?

      # A header section that straddles chunks costs one copy; complete ones cost none.
      buffer = @partial ? @partial << data : data
      @partial = nil
      steps = nil
      fed = 0
      pos = 0
      size = buffer.bytesize
      while pos < size
        if @body_left.positive?
          take = [@body_left, size - pos].min
          @body_left -= take
          pos += take
          next
        end
        break if @stopped

        start = pos
        pos += 1 while pos < size && pos - start <= MAX_LEADING_BLANKS && LINE_BREAK_BYTES.include?(buffer.getbyte(pos))
        return refuse(steps, buffer, fed, start, 400) if pos - start > MAX_LEADING_BLANKS
        break if pos == size

        header_end = buffer.index(CRLF2, pos)
        if header_end.nil?
          return refuse(steps, buffer, fed, start, 431) if size - pos > @limits['MAX_HEADER_BYTES']

          @partial = buffer.byteslice(start, size - start)
          size = start
          break
        end
        verdict = judge(buffer.byteslice(pos, header_end + 4 - pos))
        pos = header_end + 4
        next if verdict == :feed
        return refuse(steps, buffer, fed, start, verdict) if verdict.is_a?(Answer)

        steps = feed(steps, buffer, fed, start) << [:continue]
        fed = start
      end
      stop_at = [pos, size].min
      return :pass if steps.nil? && fed.zero? && stop_at == data.bytesize && buffer.equal?(data)

      feed(steps, buffer, fed, stop_at)
    end

    private

    # Adds a step that shows the parser buffer[from...to]. The step holds a fresh string: the C
    # parser reads on to a NUL after the data, which a shared substring need not have.
    def feed(steps, buffer, from, to)
      steps ||= []
      return steps if to <= from

      steps << [:feed, String.new(capacity: to - from + 1) << buffer.byteslice(from, to - from)]
    end

    def refuse(steps, buffer, fed, bad_start, status_or_answer)
      answer = status_or_answer.is_a?(Answer) ? status_or_answer : Answer.new(status_or_answer, nil)
      @stopped = true
      @body_left = 0
      @partial = nil
      feed(steps, buffer, fed, bad_start) << [:answer, answer]
    end

    # Reads one complete header section. Returns an Answer (the gate replies itself), :continue
    # (the parser gets it, after a 100 Continue) or :feed (the parser gets it).
    def judge(section)
      refuse = ->(status) { Answer.new(status, nil) }
      return refuse.call(431) if section.bytesize > @limits['MAX_HEADER_BYTES']

      text = section.byteslice(0, section.bytesize - 4)
      return refuse.call(400) if text.match?(/(?<!\r)\n|\r(?!\n)/n)

      lines = text.split("\r\n", -1)
      request = REQUEST_LINE.match(lines.shift)
      return refuse.call(400) unless request

      method, target, minor = request.captures
      return refuse.call(400) unless @known_methods[method]

      fields = Hash.new { |h, k| h[k] = [] }
      lines.each do |line|
        return refuse.call(431) if line.bytesize > @limits['MAX_HEADER_LINE_BYTES']

        field = HEADER_LINE.match(line)
        return refuse.call(400) unless field

        fields[field[1].downcase] << field[2]
      end
      verdict_for(method, target, minor == '1', fields)
    end

    def verdict_for(method, target, http11, fields)
      refuse = ->(status) { Answer.new(status, nil) }
      lengths = fields.fetch('content-length', [])
      encodings = fields.fetch('transfer-encoding', [])
      return refuse.call(400) if lengths.size > 1 || (lengths.size == 1 && !lengths[0].match?(/\A\d{1,15}\z/))
      return refuse.call(400) if encodings.any? && (lengths.any? || !encodings.last.match?(/(\A|,)[ \t]*chunked\z/i))
      return refuse.call(400) if http11 && !fields.key?('host')
      return refuse.call(411) if encodings.any?
      return refuse.call(414) if target.bytesize > @limits['MAX_URL_BYTES']

      length = lengths.empty? ? 0 : lengths[0].to_i
      return refuse.call(413) if length > @limits['MAX_UPLOAD_BYTES']

      expect = fields.fetch('expect', [])
      return refuse.call(417) if expect.any? { |e| !e.casecmp?('100-continue') }

      path = target.start_with?('/') && !target.include?('#') ? StaticSite.decode_path(target.split('?', 2)[0]) : nil
      return refuse.call(400) if path.nil?

      # A method Node knows but the C parser does not: answered here as the Node server answers
      # it (a method error, so the connection closes).
      return Answer.new(@allow_for.call(path) ? 405 : 404, @allow_for.call(path)) unless PARSER_METHODS.include?(method)

      keep_alive = keep_alive?(http11, fields.fetch('connection', []))
      @stopped = true unless keep_alive
      @body_left = length
      @heads << Head.new(keep_alive, method == 'POST' && path == '/upload', 0, nil)
      expect.any? ? :continue : :feed
    end

    def keep_alive?(http11, connection_values)
      tokens = connection_values.flat_map { |v| v.downcase.split(',').map(&:strip) }
      http11 ? !tokens.include?('close') : tokens.include?('keep-alive')
    end
  end
end
