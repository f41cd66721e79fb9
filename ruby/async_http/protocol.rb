# frozen_string_literal: true

require 'io/stream'
require 'async/http/protocol/http1'
require 'protocol/http/body/buffered'
require_relative '../shared/reply'

module EmVsNode
  module AsyncHttpServer
    # async-http's HTTP/1 protocol (Async::HTTP::Protocol::HTTP1: the same #server and #names)
    # with the contract's error replies. The library answers a request it cannot parse through
    # its server connection's #fail_request: a 400 with the error's class name as its body and no
    # Date; the contract's is the other servers' (status line, Content-Type, Date, Connection:
    # close, the status text). It ends a connection without a reply where the error is not its
    # BadRequest: a line over maximum_line_length (the contract: 414 for the request line, its
    # target over MAX_URL_BYTES; 431 for a header line), answered here too, by the same method.
    class ContractProtocol
      def initialize(errors, headers_timeout_s:, **options)
        @errors = errors
        @headers_timeout_s = headers_timeout_s
        @options = options
      end

      def names
        Async::HTTP::Protocol::HTTP1.names
      end

      def server(peer)
        Connection.new(::IO::Stream(peer), Async::HTTP::Protocol::HTTP1::VERSION,
                       errors: @errors, headers_timeout_s: @headers_timeout_s, **@options)
      end
    end

    # The library's server connection, answering its refusals as the contract does, with the
    # contract's header deadline, which the library has no setting for.
    class Connection < Async::HTTP::Protocol::HTTP1::Server
      # errors: a status => ReplyTemplate callable (App#error).
      def initialize(stream, version, errors:, headers_timeout_s:, **options)
        super(stream, version, **options)
        @errors = errors
        @headers_timeout_s = headers_timeout_s
      end

      # The contract's reply for the library's refusal: the connection closes after it. Its
      # body goes to HEAD too when the parser refused (Node's parser's 400 does: two
      # Content-Lengths), not when the refusal is one of the server's own checks (two Hosts) or
      # a header line over the limit (Node's 431 to HEAD has none).
      def fail_request(status, error)
        template = @errors.call(status)
        head = @request_line&.first == 'HEAD' && (status == 431 || host_twice?(error))
        @persistent = false
        write_response(@version, status, [['content-type', template.type], ['date', HttpDate.now]])
        write_body(@version, ::Protocol::HTTP::Body::Buffered.new([template.body], template.body.bytesize), head)
      rescue StandardError
        nil # the client is gone: nothing to tell it
      end

      # A line over the limit is no BadRequest to the library, which then closes without a
      # reply: the contract's 414 (the request line) or 431 (a header line).
      # The header deadline (HEADERS_TIMEOUT_MS, then 408 and a close): from the connection's
      # start for its first request, as the contract's; for a later one from its first byte,
      # after an idle wait that only the socket's timeout bounds (KEEPALIVE_TIMEOUT_MS, a close
      # without a reply). A timer per request (the scheduler's), where the other servers sweep.
      def next_request
        @request_line = nil
        @stream.peek(1) if @count.positive? && idle? && @stream
        Async::Task.current.with_timeout(@headers_timeout_s) { super }
      rescue ::Protocol::HTTP1::LineLengthError => e
        fail_request(@request_line ? 431 : 414, e)
        raise
      rescue Async::TimeoutError => e
        fail_request(408, e)
        raise
      end

      # The request line, kept for a refusal after it: whether a line over the limit was a
      # header line, and whether the request was a HEAD.
      def read_request_line
        @request_line = super
      end

      # The current request's target as sent: the library's request has only its path, which
      # an absolute-form target ('http://host/path') and the asterisk form ('*') become too.
      # The library reads one request at a time, so while the application runs it is its own.
      def request_target
        @request_line&.[](1)
      end

      private

      def host_twice?(error)
        error.is_a?(::Protocol::HTTP::DuplicateHeaderError) && error.key == 'host'
      end
    end
  end
end
