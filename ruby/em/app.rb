# frozen_string_literal: true

require 'digest'
require 'uri'
require_relative 'reply'

module EmVsNode
  # What each route answers, independent of connections: the same routes as the Node server's
  # app.js, over the static site (StaticSite). Replies that never change are templates made here
  # once (see ReplyTemplate); their Keep-Alive header says the idle timeout (limits).
  class App
    TEXT = 'text/plain; charset=utf-8'

    # allow_for as a callable, made once for every connection's RequestGate.
    attr_reader :allow_for_path

    def initialize(site, limits, contract)
      @keep_alive_s = (limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0).round
      @contract = contract
      @site = site
      @routes = contract['routes']
      @hello = template(200, contract['hello_type'], contract['hello_body'].b)
      @files = {}.compare_by_identity # site file => its template, made on first use
      @allow_for_path = method(:allow_for)
      @errors = Hash.new { |cache, (status, allow)| cache[[status, allow]] = error_template(status, allow) }
    end

    # The route table: what a request (its head from the RequestGate) gets, sent through its
    # connection (Connection#deliver, #delay).
    def route(connection, method, head, query)
      keep_alive = head.keep_alive
      path = head.path
      case [method, path]
      in ['GET' | 'HEAD', '/hello'] then connection.deliver(@hello, keep_alive: keep_alive, head_only: method == 'HEAD')
      in ['GET' | 'HEAD', '/delay'] then connection.delay(delay_ms(query), keep_alive, method == 'HEAD')
      in ['POST', '/upload'] then connection.deliver(upload(head.upload_bytes, head.digest), keep_alive: keep_alive)
      in ['GET' | 'HEAD', _] if !@routes.key?(path) then connection.deliver(file(path), keep_alive: keep_alive, head_only: method == 'HEAD')
      else
        allow = allow_for(path)
        # A method no route takes (PUT, DELETE) is a method error: the connection closes even on a 404.
        connection.deliver(allow ? error(405, allow) : error(404),
                           keep_alive: !allow && keep_alive && method == 'POST', head_only: method == 'HEAD')
      end
    end

    # The Allow value for a path whose route has no handler for the method; nil when unknown.
    def allow_for(path)
      @routes.fetch(path) { @site.lookup(path) ? @contract['static_allow'] : nil }
    end

    def error(status, allow = nil)
      @errors[[status, allow]]
    end

    def file(path)
      file = @site.lookup(path)
      file ? (@files[file] ||= template(200, file.type, file.body)) : error(404)
    end

    def upload(bytes, digest)
      template(200, 'application/json', %({"bytes":#{bytes},"sha256":"#{(digest || Digest::SHA256.new).hexdigest}"}).b)
    end

    def delayed(delay_ms)
      template(200, TEXT, "waited #{delay_ms} ms\n".b)
    end

    # The delay in ms for a /delay query (what follows the first '?'), or nil when it is not an
    # integer 0..delay_max_ms: the first '&'-separated pair named ms, as app.js's delayMs reads it.
    def delay_ms(query)
      pair = (query || '').b.split('&').find { |p| decode_component(p.split('=', 2)[0] || '') == 'ms' }
      value = pair && decode_component(pair.split('=', 2)[1] || '')
      return nil unless value&.match?(/\A\d{1,5}\z/) && value.to_i <= @contract['delay_max_ms']

      value.to_i
    end

    private

    def template(status, type, body, extra_headers = nil)
      ReplyTemplate.new(status, type, body, extra_headers, keep_alive_s: @keep_alive_s)
    end

    def error_template(status, allow)
      template(status, TEXT, "#{@contract['status_text'][status.to_s]}\n".b, allow && { 'Allow' => allow })
    end

    # A query component, percent-decoded as bytes (a query may hold any bytes: '%FF' is no
    # error, just not a number); nil for a malformed escape.
    def decode_component(text)
      URI.decode_www_form_component(text).b
    rescue ArgumentError
      nil
    end
  end
end
