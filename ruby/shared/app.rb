# frozen_string_literal: true

require 'digest'
require 'uri'
require_relative 'reply'

module EmVsNode
  # What each route answers, independent of connections: the same routes as the Node server's
  # app.js, over the static site (StaticSite); /upstream and /db ask the backends each server
  # builds on its own loop's clients (run_server), each nil when not configured. Replies that
  # never change are templates made here once (see ReplyTemplate); their Keep-Alive header says
  # the idle timeout (limits).
  class App
    TEXT = 'text/plain; charset=utf-8'

    # allow_for as a callable, made once for every connection's RequestGate.
    attr_reader :allow_for_path

    def initialize(site, limits, contract, upstream: nil, database: nil)
      @upstream = upstream
      @database = database
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
      in ['GET' | 'HEAD', '/upstream'] then upstream(connection, query, keep_alive, method == 'HEAD')
      in ['GET' | 'HEAD', '/db'] then db(connection, query, keep_alive, method == 'HEAD')
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

    # The delay in ms for a /delay (or /upstream) query, or nil when it is not an integer
    # 0..delay_max_ms: the first pair named ms, as app.js's delayMs reads it.
    def delay_ms(query)
      integer_up_to(query_value(query, 'ms'), @contract['delay_max_ms'])
    end

    # The row for a /db query: the first pair named id, read as delay_ms reads ms, an integer
    # 1..db_rows; with no id pair a random row (TechEmpower's single query); nil for anything
    # else. As app.js's dbId.
    def db_id(query)
      value = query_value(query, 'id')
      return rand(1..@contract['backends']['db_rows']) if value == :absent

      id = integer_up_to(value, @contract['backends']['db_rows'])
      id&.zero? ? nil : id
    end

    # /upstream: the upstream's /delay, whose body comes back verbatim (so /upstream?ms=N answers
    # as /delay?ms=N); 502 for anything but its 200.
    def upstream(connection, query, keep_alive, head_only)
      ms = delay_ms(query)
      return connection.deliver(error(400), keep_alive: false, head_only: head_only) if ms.nil?
      return connection.deliver(error(502), keep_alive: keep_alive, head_only: head_only) unless @upstream

      connection.await_backend(keep_alive, head_only) do |reply|
        @upstream.get("/delay?ms=#{ms}") { |body| reply.call(body ? template(200, TEXT, body) : error(502)) }
      end
    end

    # /db: the row's stored value, an integer's digits, written as a JSON number; anything else
    # (a missing row, a value that is no integer, Redis down or late) is 503.
    def db(connection, query, keep_alive, head_only)
      id = db_id(query)
      return connection.deliver(error(400), keep_alive: false, head_only: head_only) if id.nil?
      return connection.deliver(error(503), keep_alive: keep_alive, head_only: head_only) unless @database

      connection.await_backend(keep_alive, head_only) do |reply|
        @database.get(id) { |value| reply.call(row(id, value)) }
      end
    end

    private

    def template(status, type, body, extra_headers = nil)
      ReplyTemplate.new(status, type, body, extra_headers, keep_alive_s: @keep_alive_s)
    end

    def row(id, value)
      return error(503) unless value&.match?(/\A-?\d{1,15}\z/)

      template(200, 'application/json', %({"id":#{id},"randomNumber":#{value.to_i}}).b)
    end

    # The value of the first '&'-separated pair of a query (what follows the first '?') whose
    # decoded name is name: its decoded value ('' without '='), :absent when no pair has that
    # name, nil for a malformed escape. As app.js's queryValue.
    def query_value(query, name)
      pair = (query || '').b.split('&').find { |p| decode_component(p.split('=', 2)[0] || '') == name }
      pair ? decode_component(pair.split('=', 2)[1] || '') : :absent
    end

    # An integer 0..most written in at most as many digits as most, or nil.
    def integer_up_to(value, most)
      return nil unless value.is_a?(String) && value.bytesize <= most.to_s.size && value.match?(/\A\d+\z/) && value.to_i <= most

      value.to_i
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
