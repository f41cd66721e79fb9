# frozen_string_literal: true

require_relative 'config'
require_relative 'node_parser_methods'

module EmVsNode
  # How Node's parser (llhttp) reads a header section, for the RequestGate, which must answer as
  # the Node server does before eventmachine_httpserver's parser sees a byte: what it refuses
  # as soon as the byte arrives, and what it counts towards MAX_HEADER_BYTES and
  # MAX_HEADER_LINE_BYTES. The Node server has these in C, inside llhttp, so node/ has no twin
  # of this file. Mixed into RequestGate, whose limits (@max_header_bytes, @max_line_bytes) and
  # line patterns it reads.
  module HeaderReading
    # Node's parser takes one or more spaces between the parts of the request line (RFC 9112 §3
    # allows it), so the gate does too. It also reads HTTP/0.9 and HTTP/2.0 request lines, which
    # the Node server then refuses (400, after the parser's own checks), and RTSP's and ICE's,
    # which it reads as HTTP's of their version (NodeParserMethods).
    REQUEST_LINE = %r{\A([!-~]+) +([!-~]+) +(#{NodeParserMethods::PROTOCOLS})/(#{NodeParserMethods::VERSIONS})\z}
    # Header lines, each as HEADER_LINE takes it whole, as a pattern's text (RequestGate::SECTION's).
    FIELD_LINES = %q{((?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\x00-\x08\x0a-\x1f\x7f]*\r\n)*)}
    HEADER_LINE = /\A([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*\z/n
    # Node's parser takes white space before a Content-Length and after it (llhttp 9.4, Node 22
    # and later; Node 20's 9.3 refused a tab after it: CONTRACT.md, "A runtime's own parser (Node 20)").
    CONTENT_LENGTH = /\A[ \t]*(\d+)[ \t]*\z/
    CONTENT_LENGTH_MAX = (2**64) - 1 # beyond it Node's parser reports an overflow: 400
    # The last line of a header section still arriving: a name so far, or a name, a colon and a value so far.
    PARTIAL_HEADER_LINE = /\A[!#$%&'*+.^_`|~0-9A-Za-z-]*(?::[^\x00-\x08\x0a-\x1f\x7f]*)?\z/n
    # A Content-Length still arriving: white space, digits, white space (a digit after white space
    # is refused at once).
    PARTIAL_CONTENT_LENGTH = /\A[ \t]*(?:\d+[ \t]*)?\z/
    # The gate holds at most this many times MAX_HEADER_BYTES of one header section, whatever
    # Node's parser would count of it (white space before a value counts nothing there).
    RAW_HEADER_FACTOR = 4
    LEADING_WHITE_SPACE = /\A[ \t]+/

    private

    # What Node's parser would already answer to the start of a header section whose end has
    # not arrived: 400 at a byte it refuses (binary noise, a bare LF, a bad name or value, a
    # malformed Content-Length), 431 once what it counts reaches MAX_HEADER_BYTES; nil to wait.
    # Waiting for a blank line that never comes would hold the connection open instead.
    def partial_fault(partial)
      return NodeParserMethods.preface_fault(partial) if NodeParserMethods.pri_line?(partial)

      return 400 if partial.match?(/(?<!\r)\n|\r(?!\n|\z)/n)
      return 431 if partial.bytesize > @max_header_bytes * RAW_HEADER_FACTOR

      first_fault(partial, complete: false)
    end

    # What a header section the gate's SECTION refuses gets, as Answer fields [status, allow,
    # head_only]: Node's parser's fault, or, when that parser reads it (an HTTP/0.9 or 2.0
    # request line), the Node server's 400, to HEAD without a body.
    def refusal_of_malformed(section)
      fault = first_fault(section, complete: true)
      [fault || 400, nil, fault.nil? && section.start_with?('HEAD ')]
    end

    # Reads a header section (or, not complete, the start of one) line by line as Node's
    # parser does and returns the status of its first fault: 400 for a line it refuses, 431
    # once what it counts towards MAX_HEADER_BYTES reaches it (the target, each field name and
    # each value from its first byte that is not white space); nil when there is none.
    def first_fault(section, complete:)
      lines = (complete ? section.byteslice(0, section.bytesize - 4) : section).split("\r\n", -1)
      request_line = lines.shift
      return request_line_prefix_fault(request_line) if lines.empty? && !complete

      counted = start_line_count(request_line, complete)
      return counted if [400, 431].include?(counted)

      framing = { lengths: 0, codings: false, chunked: false }
      lines.each_with_index do |line, i|
        incomplete = !complete && i == lines.size - 1
        line = line.chomp("\r") if incomplete
        name, value = line.split(':', 2)
        counted += name.to_s.bytesize + value.to_s.sub(LEADING_WHITE_SPACE, '').bytesize
        return 431 if counted >= @max_header_bytes
        return 400 unless (incomplete ? PARTIAL_HEADER_LINE : HEADER_LINE).match?(line)

        # A value Node's parser has not yet seen end: its line still arriving, or the last one
        # whose CRLF came with no byte of the next line after it (the parser waits for that
        # byte, which may fold the value on, before it judges the value).
        pending = !complete && (incomplete || (i == lines.size - 2 && lines.last.empty?))
        return 400 if value && framing_fault?(framing, name, value, incomplete, pending)
      end
      nil
    end

    # What a complete request line counts towards MAX_HEADER_BYTES (its target), or its fault
    # (400, 431). A held line counts nothing yet: it waits for its section's end, and its
    # header lines are still read as they come.
    def start_line_count(request_line, complete)
      request = REQUEST_LINE.match(request_line)
      return 0 if !request && !complete && NodeParserMethods.held_request_line?(request_line)
      return 400 unless request && NodeParserMethods.reads?(request[3], request[1])

      request[2].bytesize >= @max_header_bytes ? 431 : request[2].bytesize
    end

    # Node's parser's framing rules, line by line: one Content-Length of digits, at most
    # 2^64 - 1 (refused at the digit past it), after no Transfer-Encoding with a coding; no
    # Transfer-Encoding after a Content-Length; no empty Transfer-Encoding (llhttp 9.4: Node 22
    # and later); nothing after chunked. framing: what the lines so far had; incomplete: the line
    # is still arriving; pending: its value's end is not yet known to the parser, so an empty
    # Content-Length or Transfer-Encoding waits (CONTRACT.md, "One moment to refuse").
    def framing_fault?(framing, name, value, incomplete, pending)
      if name.casecmp?('content-length')
        framing[:lengths] += 1
        return true if framing[:lengths] > 1 || framing[:codings]
        return true unless (pending ? PARTIAL_CONTENT_LENGTH : CONTENT_LENGTH).match?(value)

        return value.strip.to_i > CONTENT_LENGTH_MAX
      end
      return false if incomplete || !name.casecmp?('transfer-encoding')
      return true if framing[:lengths].positive?

      coded = !value.strip.empty?
      return !pending unless coded
      return true if framing[:chunked]

      framing[:codings] = true
      elements = value.split(',', -1)
      at = elements.index { |element| element.strip.casecmp?('chunked') }
      framing[:chunked] ||= !at.nil?
      !at.nil? && at < elements.size - 1
    end

    # The fault of a request line still arriving, as first_fault's.
    def request_line_prefix_fault(line)
      if line.end_with?("\r")
        request = REQUEST_LINE.match(line.chop)
        return nil if !request && NodeParserMethods.held_request_line?(line.chop)

        return 400 unless request && NodeParserMethods.reads?(request[3], request[1])
      elsif !NodeParserMethods.request_line_prefix?(line)
        return 400
      end
      431 if line.bytesize >= @max_header_bytes
    end

    # What Node's parser refuses (so a 400 with a body, even to HEAD, or a 431) of a header
    # section the gate's SECTION matched in a method it reads with the protocol named: where the
    # order of the lines matters (what it counts, and Transfer-Encoding: both rare) the first
    # fault line by line; a Content-Length that is not digits, or twice, or past 2^64 - 1. nil
    # when none.
    def parser_fault(buffer, start, length, fields)
      if length > @max_header_bytes || fields.key?('transfer-encoding')
        fault = first_fault(buffer.byteslice(start, length), complete: true)
        return fault if fault
      end
      lengths = fields['content-length']
      400 if lengths && (lengths.size > 1 || content_length(fields).nil?)
    end

    # Whether a header line is over MAX_HEADER_LINE_BYTES, measured as Node's server measures
    # it: the name, ': ' and the value without the white space around it (RFC 9110 §5.5).
    def long_line?(lines)
      lines.split("\r\n").any? do |line|
        next false if line.bytesize < @max_line_bytes

        colon = line.index(':')
        colon + 2 + line.byteslice(colon + 1, line.bytesize).strip.bytesize > @max_line_bytes
      end
    end
  end
end
