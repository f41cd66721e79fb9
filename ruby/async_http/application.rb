# frozen_string_literal: true

require 'digest'
require 'async/promise'
require 'protocol/http/response'
require 'protocol/http/body/buffered'
require 'protocol/http1/body/chunked'
require 'protocol/http1/error'
require 'protocol/http/error'
require_relative '../shared/request_gate'
require_relative '../shared/node_parser_methods'
require_relative '../shared/reply'

module EmVsNode
  module AsyncHttpServer
    # The application async-http's server calls with each request protocol-http1 has read (a
    # Protocol::HTTP middleware's #call: request in, response out). The routes are the other
    # servers' (ruby/shared/app.rb's App, through an Exchange), the replies their templates
    # (ReplyTemplate) given to the library as status, headers and a body of known length. The
    # library parses, frames and keeps connections; what it leaves to an application, the
    # contract's checks of a parsed request, is here, in the order Node's server makes them where
    # the parsed request still shows them (#refusal).
    class Application
      HTTP10 = 'HTTP/1.0'
      VERSIONS = [HTTP10, 'HTTP/1.1'].freeze
      NOT_SERVED = %w[CONNECT PRI].freeze
      CONTINUE_EXPECTATION = '100-continue'
      # What a client causes while its request is read or answered: it left, or stalled past the
      # socket's timeout. The connection ends without a reply (Server#accept).
      ENDED = [
        IO::TimeoutError, Async::TimeoutError, ::Protocol::HTTP1::LineLengthError, ::Protocol::HTTP1::ProtocolError,
        ::Protocol::HTTP::RemoteError,
        EOFError, IOError, Errno::ECONNRESET, Errno::EPIPE
      ].freeze

      def initialize(app, limits)
        @app = app
        @max_url_bytes = limits['MAX_URL_BYTES']
        @max_header_bytes = limits['MAX_HEADER_BYTES']
        @max_upload_bytes = limits['MAX_UPLOAD_BYTES']
        @body_timeout_s = limits['BODY_TIMEOUT_MS'] / 1000.0
        @request_timeout_s = limits['REQUEST_TIMEOUT_MS'] / 1000.0
        @keep_alive = ['keep-alive', "timeout=#{(limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0).round}"].freeze
        @host = RequestGate::HOST_VALUE
      end

      # protocol-http1 writes no body to HEAD, whatever the status. A bug of ours costs one
      # connection, never the server: 500 and a close, and one line on stderr. What the client
      # causes (it left, or stalled past the socket's timeout mid-upload) ends the connection.
      def call(request)
        status = refusal(request)
        return respond(request, @app.error(status), false) if status

        route(request)
      rescue *ENDED
        raise
      rescue StandardError => e
        warn "async_http server: internal error, connection closed: #{e.class}: #{e.message} (#{e.backtrace&.first})"
        respond(request, @app.error(500), false)
      end

      private

      # The request as the routes see it (RequestGate::Head), routed; an upload's body is read
      # first, through SHA-256, as the only body read before its reply.
      def route(request)
        target = request.path
        query_at = target.index('?')
        # A fragment is never part of a target (RFC 9112 §3.2); the library's path keeps it.
        path = !target.include?('#') && StaticSite.decode_path(query_at ? target.byteslice(0, query_at) : target)
        return respond(request, @app.error(400), false) unless path

        upload = request.method == 'POST' && path == '/upload'
        expects = request.version != HTTP10 && request.headers['expect']
        # A request that expected a 100 Continue and is answered without it closes its
        # connection after the reply (its client may still send the body): Node's rule.
        keep_alive = request.connection.persistent && !(expects && !upload) && !close_token?(request)
        head = RequestGate::Head.new(keep_alive, upload, 0, nil, path)
        return respond(request, @app.error(408), false) if upload && !read_upload(request, head, expects)

        exchange = Exchange.new(@app)
        @app.route(exchange, request.method, head, query_at && target.byteslice(query_at + 1, target.bytesize))
        respond(request, exchange.template, exchange.keep_alive)
      end

      # The contract's refusals the parsed request can still show (the library refuses what
      # it cannot parse itself, CONTRACT.md "The async-http server"): Node's parser's method
      # list, the header section's size, CONNECT, Host, a body without a Content-Length (411 for
      # chunked, which the library would read: eventmachine_httpserver cannot; body_length), the URL and
      # upload limits, the one expectation, and the target's form.
      def refusal(request)
        method = request.method
        target = request.connection.request_target
        # Neither server is a proxy (CONNECT), nor speaks HTTP/2 (PRI: Node's parser reads only its
        # preface, and Node's server refuses it).
        return 400 if NOT_SERVED.include?(method) || !NodeParserMethods.reads?('HTTP', method) || !VERSIONS.include?(request.version)
        return 431 if header_bytes(request, target) >= @max_header_bytes
        return 400 unless host_ok?(request)

        length, status = body_length(request)
        return status if status
        return 414 if target.bytesize > @max_url_bytes
        return 400 if length && length > HeaderReading::CONTENT_LENGTH_MAX # Node's parser's overflow
        return 413 if length && length > @max_upload_bytes

        expect = request.headers['expect']&.rstrip
        return 417 if expect && request.version != HTTP10 && !expect.casecmp?(CONTINUE_EXPECTATION)

        # Only the origin form: neither server is a proxy (the library reads an absolute-form
        # target as its path, and passes '*' on as one).
        400 unless target.start_with?('/')
      end

      # A close token in Connection, white space around it or not: the library's list keeps the
      # white space after a value ('TE, CLOSE ' is not close to it), the contract's does not.
      def close_token?(request)
        request.headers['connection']&.any? { |token| token.strip == 'close' }
      end

      # Counted as Node's parser counts a header section: the target, each field's name and value.
      def header_bytes(request, target)
        request.headers.fields.sum { |name, value| name.bytesize + value.bytesize } + target.bytesize
      end

      # One Host of host syntax, required in HTTP/1.1 (the library takes it out of the fields,
      # and keeps the white space after its value, which is no part of it: RFC 9110 §5.5).
      def host_ok?(request)
        host = request.authority
        host.nil? ? request.version == HTTP10 : @host.match?(host.rstrip)
      end

      # The body's declared length, or the refusal of a body without one: chunked is 411, as on
      # the other servers; any other Transfer-Encoding, which the library reads to the
      # connection's end, 400. A request with an Upgrade field has such a body too (the library
      # reads what follows it as the new protocol's, and leaves its Content-Length unread): it is
      # answered, and the connection closed, with that Content-Length checked here.
      def body_length(request)
        body = request.body
        length = body&.length
        return [length, nil] unless body && length.nil?
        return [nil, body.body.is_a?(::Protocol::HTTP1::Body::Chunked) ? 411 : 400] unless request.protocol

        declared = request.headers['content-length']
        return [nil, nil] if declared.nil?

        declared.match?(/\A\d+\z/) ? [declared.to_i, nil] : [nil, 400]
      end

      # The upload's body, read through SHA-256 as it arrives, a 100 Continue first when asked;
      # false when it came too slowly: no progress for BODY_TIMEOUT_MS (the socket's timeout,
      # raised from the keep-alive timeout for the body's reads), or not whole within
      # REQUEST_TIMEOUT_MS (from its header section's end: the library hands a request over
      # then; the contract counts from its first byte).
      def read_upload(request, head, expects)
        request.send_interim_response(100, []) if expects
        body = request.body
        return true unless body

        socket = request.connection.stream.io
        idle_timeout = socket.timeout
        socket.timeout = @body_timeout_s
        begin
          Async::Task.current.with_timeout(@request_timeout_s) { digest(body, head) }
          true
        rescue IO::TimeoutError, Async::TimeoutError
          false
        ensure
          # The library waits for a body the application read to be closed before it reads the
          # next request or ends the connection (async-http's Finishable#wait); one closed
          # before its end closes the connection's reading side (protocol-http1's Body::Fixed).
          body.close
          socket.timeout = idle_timeout
        end
      end

      def digest(body, head)
        digest = head.digest = Digest::SHA256.new
        while (chunk = body.read)
          digest.update(chunk)
          head.upload_bytes += chunk.bytesize
        end
      end

      # The template as the library's response: status, Content-Type, Date, the template's own
      # fields, and the connection's fate. protocol-http1 writes Content-Length, and Connection
      # where it differs from the version's default (close on HTTP/1.1, keep-alive on HTTP/1.0);
      # the other servers say Connection on every reply, so the rest is said here.
      def respond(request, template, keep_alive)
        keep = template.keep_alive?(keep_alive)
        http10 = request.version == HTTP10
        headers = [['content-type', template.type], ['date', HttpDate.now]]
        template.extra_headers&.each { |name, value| headers << [name.downcase, value] }
        if keep
          headers << %w[connection keep-alive] unless http10
          headers << @keep_alive
        else
          request.connection.persistent = false # public, and safe to turn off (protocol-http1)
          headers << %w[connection close] if http10
        end
        body = template.body
        ::Protocol::HTTP::Response[template.status, headers, ::Protocol::HTTP::Body::Buffered.new([body], body.bytesize)]
      end
    end

    # What App#route replies through, for one request: the template it chose and whether the
    # connection stays open. A /delay sleeps and a backend call is awaited in the request's own
    # task (fiber), so replies stay in request order as the library reads one request at a time.
    class Exchange
      attr_reader :template, :keep_alive

      def initialize(app)
        @app = app
      end

      def deliver(template, keep_alive:, **)
        @template = template
        @keep_alive = keep_alive
      end

      def delay(delay_ms, keep_alive, _head_only)
        return deliver(@app.error(400), keep_alive: false) if delay_ms.nil?

        sleep(delay_ms / 1000.0)
        deliver(@app.delayed(delay_ms), keep_alive: keep_alive)
      end

      # The call runs under the server's task (its backend's #start), bounded by its deadline; a
      # client that leaves stops only this wait, and the call's result is dropped.
      def await_backend(keep_alive, _head_only)
        promise = Async::Promise.new
        yield(proc { |template| promise.resolve(template) })
        deliver(promise.wait, keep_alive: keep_alive)
      end
    end
  end
end
