# frozen_string_literal: true

require_relative 'config'
require_relative 'static_site'
require_relative 'header_reading'

module EmVsNode
  # Sees every byte before eventmachine_httpserver's C parser does. That parser decides on a
  # request only once its body has arrived, knows five methods, ignores Transfer-Encoding and
  # answers its own errors without Content-Length or Date. The gate finds where each request's
  # header section ends, applies the checks the Node server's http parser applies (and the
  # contract's limits) there, before any body byte is read, and only then lets the parser see
  # the request. Requests it refuses, and requests in a method the parser does not know, it
  # answers itself and never shows the parser.
  class RequestGate
    include HeaderReading

    # What the connection needs to know of a request the parser will dispatch (path: decoded).
    Head = Struct.new(:keep_alive, :upload, :upload_bytes, :digest, :path)
    # A request the gate answers itself (the connection then closes): its status, the Allow
    # value for a 405, and whether it was a HEAD request that the parser read (no body then).
    Answer = Struct.new(:status, :allow, :head_only)
    # A request the parser must see in a shorter form than it came (see #accept): the header
    # section it gets instead, and whether a 100 Continue goes first.
    Rewrite = Struct.new(:section, :continue)

    PARSER_METHODS = %w[GET POST PUT DELETE HEAD].freeze
    CRLF2 = "\r\n\r\n"
    # A whole well-formed header section, from where the match starts (\G): the request line and
    # every header line as REQUEST_LINE and HEADER_LINE take them, CRLF line ends only. One
    # match in C instead of a split and a match per line: this is the gate's cost per request.
    SECTION = %r{\G([!-~]+) +([!-~]+) +(#{NodeParserMethods::PROTOCOLS})/1\.([01])\r\n#{FIELD_LINES}\r\n}n
    # The fields the gate decides on (lower case); the others are the parser's and the application's.
    FRAMING_FIELDS = %w[host content-length transfer-encoding expect connection upgrade].to_h { |name| [name, true] }.freeze
    LINE_BREAK_BYTES = [10, 13].freeze
    # The C parser's line buffer (8 KiB, http.h): a header section this long or longer may hold a
    # line it cannot take, so the parser gets the section rewritten (#accept).
    PARSER_LINE_BYTES = 8 * 1024

    NOTHING = [].freeze
    HOST_VALUE = Regexp.new(CONTRACT['host_pattern'])
    # A token of a comma-separated Connection value, in any case.
    CLOSE_TOKEN = /(?:\A|,)[ \t]*close[ \t]*(?:,|\z)/i
    KEEP_ALIVE_TOKEN = /(?:\A|,)[ \t]*keep-alive[ \t]*(?:,|\z)/i
    UPGRADE_TOKEN = /(?:\A|,)[ \t]*upgrade[ \t]*(?:,|\z)/i

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
      @discarding = false    # whether they are the body of a request answered without it
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

    # Whether the body still arriving belongs to a request that has been answered (only an
    # upload is answered after its body): it is read and dropped.
    def discarding?
      @discarding && @body_left.positive?
    end

    # Nothing more is read: the connection closes after the replies already due.
    def stop
      @stopped = true
      @body_left = 0
      @discarding = false
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
          steps, fed, pos = pass_body(steps, buffer, fed, pos, size)
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
        # A PRI line's section is HTTP/2's preface, held as Node's parser holds it (partial_fault).
        header_end = NodeParserMethods.pri_line?(buffer, pos) ? nil : buffer.index(CRLF2, pos)
        if header_end.nil?
          fault = partial_fault(buffer.byteslice(pos, size - pos))
          return refuse(steps, buffer, fed, start, fault) if fault

          @partial = buffer.byteslice(start, size - start)
          size = start
          break
        end
        verdict = judge(buffer, pos, header_end + 4 - pos)
        pos = header_end + 4
        next if verdict == :feed
        return refuse(steps, buffer, fed, start, verdict) if verdict.is_a?(Answer)

        steps, fed = show(steps, buffer, fed, start...pos, verdict)
      end
      stop_at = [pos, size].min
      return :pass if steps.nil? && fed.zero? && stop_at == data.bytesize && buffer.equal?(data)

      feed(steps, buffer, fed, stop_at)
    end

    private

    # Body bytes, buffer[pos...]: shown to the parser with what follows them, or cut out of what
    # it is fed when it must not see them (#accept). Returns [steps, fed, pos].
    def pass_body(steps, buffer, fed, pos, size)
      past = pos + [@body_left, size - pos].min
      @body_left -= past - pos
      return [steps, fed, past] unless @discarding

      [feed(steps, buffer, fed, pos), past, past]
    end

    # The header section buffer[section] goes to the parser after a 100 Continue, or rewritten
    # (a Rewrite). Returns [steps, fed].
    def show(steps, buffer, fed, section, verdict)
      steps = feed(steps, buffer, fed, section.begin)
      return [steps << [:continue], section.begin] if verdict == :continue

      steps << [:continue] if verdict.continue
      [steps << [:feed, verdict.section], section.end]
    end

    def skip_empty_lines(buffer, pos)
      pos += 1 while LINE_BREAK_BYTES.include?(buffer.getbyte(pos))
      pos
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

    # Reads one complete header section, buffer[start, length], with Node's checks in Node's
    # order. Returns an Answer (the gate replies itself), :continue (the parser gets it, after a
    # 100 Continue), :feed, or a Rewrite.
    def judge(buffer, start, length)
      return Answer.new(431) if length > @max_header_bytes * RAW_HEADER_FACTOR

      request = SECTION.match(buffer, start)
      return Answer.new(*refusal_of_malformed(buffer.byteslice(start, length))) unless request

      method = request[1]
      fields = framing_fields(request[5])
      return Answer.new(400) unless NodeParserMethods.reads?(request[3], method)

      fault = parser_fault(buffer, start, length, fields)
      return Answer.new(fault) if fault

      # Neither server is a proxy: CONNECT, whatever its target, is a bad request.
      return Answer.new(400) if method == 'CONNECT'

      head_only = method == 'HEAD'
      return Answer.new(431, nil, head_only) if length >= @max_line_bytes && long_line?(request[5])

      http11 = request[4] == '1'
      verdict = verdict_for(method, request[2], http11, fields)
      # The C parser takes HTTP's request lines with single spaces, and lines shorter than its
      # buffer; Node's server reads RTSP's and ICE's as HTTP's (NodeParserMethods).
      as_is = length < PARSER_LINE_BYTES && request[3] == 'HTTP' && request.begin(5) - start == method.bytesize + request[2].bytesize + 12
      return verdict if as_is || !verdict.is_a?(Symbol)

      Rewrite.new(parser_section(method, request[2], http11), verdict == :continue)
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

    # Expect counts in HTTP/1.1 only (RFC 9110 §10.1.1 has HTTP/1.0's 100-continue ignored;
    # Node passes no HTTP/1.0 expectation on), and a 100 Continue goes only to an upload: any
    # other request is answered at once (RFC 9110 lets a server that knows its final status
    # skip the 100).
    def verdict_for(method, target, http11, fields)
      head_only = method == 'HEAD'
      status = framing_error(http11, fields) || limit_error(target, fields) || (http11 && expectation_error(fields))
      return Answer.new(status, nil, head_only) if status

      path = site_path(target)
      return Answer.new(400, nil, head_only) if path.nil?

      unless PARSER_METHODS.include?(method)
        # A method Node knows but the C parser does not: answered here as the Node server
        # answers it (a method error, so the connection closes).
        allow = @allow_for.call(path)
        return Answer.new(allow ? 405 : 404, allow)
      end

      accept(method, target, path, http11, fields)
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

      encodings = fields.fetch('transfer-encoding', NOTHING)
      return if encodings.empty?
      return 400 if fields.key?('content-length')

      # Empty list elements are ignored (RFC 9110 §5.6.1): 'chunked,' is chunked.
      codings = encodings.join(',').split(',').map { |coding| coding.strip.downcase }.reject(&:empty?)
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
    # bytes follow the header section. Only an upload is answered after its body, as in Node;
    # any other request is answered at once, so the parser gets its header section without the
    # Content-Length (a Rewrite) and its body is dropped here.
    def accept(method, target, path, http11, fields)
      upload = method == 'POST' && path == '/upload'
      # 100 Continue only where the body is read before the reply (see verdict_for); a request
      # that expected one and is answered without it closes the connection after its reply, as
      # Node's server does: its client may still send the body it announced.
      expects = http11 && fields.key?('expect')
      keep_alive = keep_alive?(http11, fields) && !(expects && !upload)
      @stopped = true unless keep_alive
      length = content_length(fields)
      @body_left = length
      @discarding = length.positive? && !upload
      @heads << Head.new(keep_alive, upload, 0, nil, path)
      return Rewrite.new(parser_section(method, target, http11), expects && upload) if @discarding

      expects && upload ? :continue : :feed
    end

    # The shortest header section that gives the parser this request: the request line, and the
    # length of a body it must read. The application needs nothing else of it.
    def parser_section(method, target, http11)
      framing = @discarding || @body_left.zero? ? '' : "Content-Length: #{@body_left}\r\n"
      "#{method} #{target} HTTP/1.#{http11 ? 1 : 0}\r\n#{framing}\r\n"
    end

    # Whether the connection stays open after this request. A request that asks to upgrade
    # closes it: Node's parser takes what follows it for another protocol (CONTRACT.md).
    def keep_alive?(http11, fields)
      values = fields['connection']
      return http11 if values.nil?

      value = values.size == 1 ? values[0] : values.join(',')
      return false if fields.key?('upgrade') && UPGRADE_TOKEN.match?(value)

      http11 ? !CLOSE_TOKEN.match?(value) : KEEP_ALIVE_TOKEN.match?(value)
    end
  end
end
