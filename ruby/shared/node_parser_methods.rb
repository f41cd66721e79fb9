# frozen_string_literal: true

require_relative 'config'

module EmVsNode
  # The start of a request line as Node's parser (llhttp 9.4, Node 22 and 24; its
  # src/llhttp/constants.ts and http.ts) and Node's server read it, for the gate
  # (HeaderReading): the protocols a line may name, HTTP/, RTSP/ and ICE/, each read as HTTP/ of
  # its version, and the methods each may come with. The parser refuses a line at the first byte
  # no method it reads starts with, and at a protocol its method may not come with as soon as
  # the protocol's name has arrived; after `PRI <target> HTTP/x.y` it reads only the rest of
  # HTTP/2's preface. Each moment checked against Node 24's server byte by byte (the cases of
  # ruby/test/node_parser_methods_test.rb, 2026-11-30).
  module NodeParserMethods
    # HTTP/ takes Node's methods (contract.json http_methods) and PRI; RTSP/ RTSP's, AirPlay's
    # GET and POST and RAOP's FLUSH; ICE/ only SOURCE. Node's server answers a method it does not
    # serve as any other (405, or 404 for a path it does not know).
    PROTOCOL_METHODS = {
      'HTTP' => [*CONTRACT['http_methods'], 'PRI'],
      'RTSP' => %w[OPTIONS DESCRIBE ANNOUNCE SETUP PLAY PAUSE TEARDOWN GET_PARAMETER SET_PARAMETER
                   REDIRECT RECORD GET POST FLUSH],
      'ICE' => %w[SOURCE]
    }.transform_values { |names| names.to_h { |name| [name.b.freeze, true] }.freeze }.freeze
    ANY_PROTOCOL = PROTOCOL_METHODS.values.reduce(:merge).freeze
    METHOD_STARTS = ANY_PROTOCOL.keys.flat_map { |name| (1..name.size).map { |n| name[0, n] } }.to_h { |x| [x, true] }.freeze
    PROTOCOL_NAMES = PROTOCOL_METHODS.keys.freeze
    # The protocols as a pattern's alternatives (HTTP|RTSP|ICE), for the gate's line patterns.
    PROTOCOLS = PROTOCOL_NAMES.join('|').freeze
    # A request line still arriving, in its parts: the method (or its start), the spaces and the
    # target, the spaces and the protocol and version so far.
    REQUEST_LINE_PARTS = /\A([^ ]*)(?:( +)([^ ]*)(?:( +)(.*))?)?\z/m
    # A protocol and version still arriving, once the protocol's name has: the versions Node's
    # parser reads (0.9, 1.0, 1.1, 2.0), for every protocol alike.
    VERSION_PREFIX = %r{\A(?:#{PROTOCOLS})(?:/(?:[012](?:\.[019]?)?)?)?\z}
    # A request line without a version, HTTP/0.9's: Node's parser reads on to the end of its
    # header section and the server then refuses it (CONTRACT.md, "One moment to refuse").
    HELD_REQUEST_LINE = /\A([!-~]+) +[!-~]+\z/
    # The versions Node's parser reads whole (a line with another is refused at its version).
    VERSIONS = /1\.[01]|0\.9|2\.0/
    # A request line in PRI as far as its version, and the preface that must follow it.
    PRI_LINE = %r{\GPRI +[!-~]+ +HTTP/(?:#{VERSIONS})}
    PRI_PREFACE = "\r\n\r\nSM\r\n\r\n"
    PRI_FIRST_BYTE = 'P'.ord

    module_function

    # Whether Node's parser reads `method` in a request line naming `protocol`.
    def reads?(protocol, method)
      PROTOCOL_METHODS.fetch(protocol).key?(method)
    end

    # Whether Node's parser reads on past the start of a request line (no CR or LF in it yet): a
    # method it reads (or the start of one), then a target, then the start of a protocol its
    # method may come with.
    def request_line_prefix?(line)
      method, _, target, gap, protocol = REQUEST_LINE_PARTS.match(line)&.captures
      return false unless method && (target ? ANY_PROTOCOL : METHOD_STARTS).key?(method)
      return target.nil? || target.match?(/\A[!-~]*\z/) if gap.nil?

      name = PROTOCOL_NAMES.find { |known| protocol.start_with?(known) }
      return PROTOCOL_NAMES.any? { |known| known.start_with?(protocol) } unless name

      reads?(name, method) && VERSION_PREFIX.match?(protocol)
    end

    # Whether a whole request line is one without a version that Node's parser reads on from
    # (HELD_REQUEST_LINE), in a method it reads.
    def held_request_line?(line)
      held = HELD_REQUEST_LINE.match(line)
      held ? ANY_PROTOCOL.key?(held[1]) : false
    end

    # Whether buffer[pos...] starts with a request line in PRI as far as its version.
    def pri_line?(buffer, pos = 0)
      buffer.getbyte(pos) == PRI_FIRST_BYTE && PRI_LINE.match?(buffer, pos)
    end

    # nil while the bytes after a PRI line's version follow HTTP/2's preface (Node's parser waits
    # for the rest, until its header deadline); 400 at the first that strays from it, and once it
    # is whole (Node's server refuses the upgrade its parser then reports: Node 24, 2026-11-30).
    def preface_fault(section)
      from = PRI_LINE.match(section).end(0)
      rest = section.byteslice(from, PRI_PREFACE.bytesize)
      400 unless PRI_PREFACE.start_with?(rest) && rest.bytesize < PRI_PREFACE.bytesize
    end
  end
end
