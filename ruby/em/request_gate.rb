# frozen_string_literal: true

require_relative 'config'
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
    # What the connection needs to know of a request the parser will dispatch (path: decoded).
    Head = Struct.new(:keep_alive, :upload, :upload_bytes, :digest, :path)
    # A request the gate answers itself (the connection then closes): its status, and the Allow
    # value for a 405.
    Answer = Struct.new(:status, :allow)

    PARSER_METHODS = %w[GET POST PUT DELETE HEAD].freeze
    CRLF2 = "\r\n\r\n"
    REQUEST_LINE = %r{\A([!-~]+) ([!-~]+) HTTP/1\.([01])\z}
    HEADER_LINE = /\A([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*\z/n
    # A whole well-formed header section, from where the match starts (\G): the request line and
    # every header line as REQUEST_LINE and HEADER_LINE take them, CRLF line ends only. One
    # match in C instead of a split and a match per line: this is the gate's cost per request.
    SECTION = %r{\G([!-~]+) ([!-~]+) HTTP/1\.([01])\r\n((?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\x00-\x08\x0a-\x1f\x7f]*\r\n)*)\r\n}n
    # The fields the gate decides on (lower case); the others are the parser's and the application's.
    FRAMING_FIELDS = %w[host content-length transfer-encoding expect connection].to_h { |name| [name, true] }.freeze
    # What the start of a header section may look like before all of it has arrived.
    REQUEST_LINE_PREFIX = %r{\A[A-Z-]{1,20}(?: [!-~]*(?: (?:H(?:T(?:T(?:P(?:/(?:1(?:\.[01]?)?)?)?)?)?)?)?)?)?\z}
    LINE_BREAK_BYTES = [10, 13].freeze
    NOTHING = [].freeze
    HOST_VALUE = Regexp.new(CONTRACT['host_pattern'])
    # Only spaces may surround a Content-Length (Node's parser refuses a tab there).
    CONTENT_LENGTH = /\A *(\d+) *\z/
    CONTENT_LENGTH_MAX = (2**64) - 1 # beyond it Node's parser reports an overflow: 400
    # A token of a comma-separated Connection value, in any case.
    CLOSE_TOKEN = /(?:\A|,)[ \t]*close[ \t]*(?:,|\z)/i
    KEEP_ALIVE_TOKEN = /(?:\A|,)[ \t]*keep-alive[ \t]*(?:,|\z)/i

    # The methods Node knows (contract.json http_methods), as a table made once for every gate.
    KNOWN_METHODS = CONTRACT['http_methods'].to_h { |name| [name.b.freeze, true] }.freeze

    attr_reader :heads

    def initialize(limits, allow_for)
      @max_header_bytes = limits['MAX_HEADER_BYTES']
      @max_line_bytes = limits['MAX_HEADER_LINE_BYTES']
      @max_url_bytes = limits['MAX_URL_BYTES']
      @max_upload_bytes = limits['MAX_UPLOAD_BYTES']
      @allow_for = allow_for # callable: decoded path → Allow value or nil
      @heads = []            # requests shown to the parser and not yet dispatched, oldest first
      @partial = nil         # the start of a header section still arriving
      @body_left = 0         # body bytes of the current request still to come
      @stopped = false       # after a refused or final request nothing more is read
    end

    # Whether the start of a header section has arrived and its end has not.
    def awaiting_header?
      !@partial.nil?
    end

    # Whether a request's body is still arriving.
    def awaiting_body?
      @body_left.positive?
    end

    # Nothing more is read: the connection closes after the replies already due.
    def stop
      @stopped = true
      @body_left = 0
      @partial = nil
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
          pos = let_body_through(pos, size)
          next
        end
        break if @stopped

        # Empty lines before a request are ignored (as Node does); the C parser would give up
        # after twelve, so it never sees them.
        blanks_end = skip_empty_lines(buffer, pos)
        if blanks_end > pos
          steps = feed(steps, buffer, fed, pos)
          fed = pos = blanks_end
          break if pos == size
        end
        start = pos

        header_end = buffer.index(CRLF2, pos)
        if header_end.nil?
          return refuse(steps, buffer, fed, start, 431) if size - pos > @max_header_bytes
          return refuse(steps, buffer, fed, start, 400) unless plausible_start?(buffer.byteslice(pos, size - pos))

          @partial = buffer.byteslice(start, size - start)
          size = start
          break
        end
        verdict = judge(buffer, pos, header_end + 4 - pos)
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

    def let_body_through(pos, size)
      take = [@body_left, size - pos].min
      @body_left -= take
      pos + take
    end

    def skip_empty_lines(buffer, pos)
      pos += 1 while LINE_BREAK_BYTES.include?(buffer.getbyte(pos))
      pos
    end

    # Whether an incomplete header section can still become a request. Node's parser rejects
    # binary noise or bare LF line ends at the first wrong byte; waiting for a blank line that
    # never comes would hold the connection open instead.
    def plausible_start?(partial)
      return false if partial.match?(/(?<!\r)\n|\r(?!\n|\z)/n)

      line_end = partial.index("\r\n")
      if line_end
        request = REQUEST_LINE.match(partial.byteslice(0, line_end))
        return request && KNOWN_METHODS[request[1]]
      end
      partial.end_with?("\r") ? REQUEST_LINE.match?(partial.chop) : REQUEST_LINE_PREFIX.match?(partial)
    end

    # Adds a step that shows the parser buffer[from...to]. The step holds a fresh string: the C
    # parser reads on to a NUL after the data, which a shared substring need not have.
    def feed(steps, buffer, from, to)
      steps ||= []
      return steps if to <= from

      steps << [:feed, String.new(capacity: to - from + 1) << buffer.byteslice(from, to - from)]
    end

    def refuse(steps, buffer, fed, bad_start, status_or_answer)
      answer = status_or_answer.is_a?(Answer) ? status_or_answer : Answer.new(status_or_answer, nil)
      stop
      feed(steps, buffer, fed, bad_start) << [:answer, answer]
    end

    # Reads one complete header section, buffer[start, length]. Returns an Answer (the gate
    # replies itself), :continue (the parser gets it, after a 100 Continue) or :feed.
    def judge(buffer, start, length)
      return Answer.new(431, nil) if length > @max_header_bytes

      request = SECTION.match(buffer, start)
      return Answer.new(malformed_status(buffer.byteslice(start, length)), nil) unless request
      return Answer.new(431, nil) if length > @max_line_bytes && long_line?(buffer.byteslice(start, length))

      method = request[1]
      return Answer.new(400, nil) unless KNOWN_METHODS[method]

      verdict_for(method, request[2], request[3] == '1', framing_fields(request[4]))
    end

    # The framing fields of header lines SECTION has checked: name (lower case) => values. A
    # split and a colon per line: half the cost of scanning them with a case-blind pattern.
    def framing_fields(lines)
      fields = {}
      lines.split("\r\n").each do |line|
        colon = line.index(':')
        name = line.byteslice(0, colon).downcase
        next unless FRAMING_FIELDS[name]

        value = line.byteslice(colon + 1, line.bytesize - colon - 1)
        # Content-Length is checked with its own white space (see CONTENT_LENGTH).
        (fields[name] ||= []) << (name == 'content-length' ? value : value.strip)
      end
      fields
    end

    # Why a header section that SECTION refuses is wrong: 431 for a line over the limit, else 400.
    def malformed_status(section)
      lines = section.byteslice(0, section.bytesize - 4).split("\r\n", -1)
      return 400 if lines.any? { |line| line.match?(/[\r\n]/n) }
      return 400 unless REQUEST_LINE.match?(lines.shift)

      lines.each do |line|
        return 431 if line.bytesize > @max_line_bytes
        return 400 unless HEADER_LINE.match?(line)
      end
      400
    end

    def long_line?(section)
      section.split("\r\n").any? { |line| line.bytesize > @max_line_bytes }
    end

    def verdict_for(method, target, http11, fields)
      # Neither server is a proxy: CONNECT, whatever its target, is a bad request.
      return Answer.new(400, nil) if method == 'CONNECT'

      status = framing_error(http11, fields) || limit_error(target, fields) || expectation_error(fields)
      return Answer.new(status, nil) if status

      path = site_path(target)
      return Answer.new(400, nil) if path.nil?

      unless PARSER_METHODS.include?(method)
        # A method Node knows but the C parser does not: answered here as the Node server
        # answers it (a method error, so the connection closes).
        allow = @allow_for.call(path)
        return Answer.new(allow ? 405 : 404, allow)
      end

      accept(method, path, http11, fields)
    end

    # The decoded path of an origin-form target, or nil.
    def site_path(target)
      return nil unless target.start_with?('/') && !target.include?('#')

      query_at = target.index('?')
      StaticSite.decode_path(query_at ? target.byteslice(0, query_at) : target)
    end

    # Framing and Host, as the contract decides (CONTRACT.md): one Host, of host
    # syntax, required in HTTP/1.1; at most one Content-Length, of digits; Transfer-Encoding
    # never with Content-Length, its last coding chunked and chunked only once, and then 411 on
    # both servers, as the C parser cannot read chunked bodies.
    def framing_error(http11, fields)
      hosts = fields.fetch('host', NOTHING)
      return 400 if hosts.size > 1 || (hosts.empty? ? http11 : !HOST_VALUE.match?(hosts[0]))

      lengths = fields.fetch('content-length', NOTHING)
      return 400 if lengths.size > 1 || (lengths.size == 1 && content_length(fields).nil?)

      encodings = fields.fetch('transfer-encoding', NOTHING)
      return if encodings.empty?
      return 400 if lengths.any?

      codings = encodings.join(',').split(',').map { |coding| coding.strip.downcase }
      codings.last == 'chunked' && codings.count('chunked') == 1 ? 411 : 400
    end

    def limit_error(target, fields)
      return 414 if target.bytesize > @max_url_bytes

      413 if (content_length(fields) || 0) > @max_upload_bytes
    end

    # The Expect rule, as request_gate.js's: the only expectation is exactly 100-continue, else
    # 417. Checked after the limits, so a body over MAX_UPLOAD_BYTES gets 413 and never a
    # 100 Continue (accept's :continue).
    def expectation_error(fields)
      417 if fields.fetch('expect', NOTHING).any? { |e| !e.casecmp?('100-continue') }
    end

    # The Content-Length of a request (0 without one); nil when it is not a length.
    def content_length(fields)
      raw = fields.fetch('content-length', NOTHING)[0]
      return 0 if raw.nil?

      length = CONTENT_LENGTH.match(raw)&.[](1)&.to_i
      length if length && length <= CONTENT_LENGTH_MAX
    end

    # The request goes to the parser: remember what the connection will need, and how many body
    # bytes to let through after the header section.
    def accept(method, path, http11, fields)
      keep_alive = keep_alive?(http11, fields['connection'])
      @stopped = true unless keep_alive
      @body_left = content_length(fields)
      @heads << Head.new(keep_alive, method == 'POST' && path == '/upload', 0, nil, path)
      fields.key?('expect') ? :continue : :feed
    end

    def keep_alive?(http11, connection_values)
      return http11 if connection_values.nil?

      value = connection_values.size == 1 ? connection_values[0] : connection_values.join(',')
      http11 ? !CLOSE_TOKEN.match?(value) : KEEP_ALIVE_TOKEN.match?(value)
    end
  end
end
