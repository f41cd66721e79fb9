# frozen_string_literal: true

require 'eventmachine'
require 'evma_httpserver'
require_relative 'request_gate'
require_relative 'reply'

module EmVsNode
  # One client connection: eventmachine_httpserver's C parser (EM::HttpServer) behind a
  # RequestGate, with replies sent in request order.
  class Connection < EM::Connection
    include EM::HttpServer

    # Replies that refuse a request close the connection, as on the Node server.
    CLOSING_STATUSES = [400, 405, 408, 411, 413, 414, 417, 431].freeze

    def initialize(app)
      super()
      @app = app
      @keep_alive_s = app.limits['KEEPALIVE_TIMEOUT_MS'] / 1000.0
    end

    def post_init
      super # the parser's state must exist before unbind, whatever happens next
      @gate = RequestGate.new(@app.limits, CONTRACT['http_methods'], @app.method(:allow_for))
      @replies = ReplyQueue.new
      @timers = []
      @admitted = @app.connection_cap.room?
      return close_connection unless @admitted

      @app.connection_cap.opened
      no_environment_strings # the parser would otherwise setenv() every header: slow, and not ours
      dont_accumulate_post   # bodies arrive in receive_post_data, piece by piece
      @idle_timeout_on = false
      @app.header_watch.waiting(self) # the first request's headers are due from the connection start
    end

    def receive_data(data)
      steps = @gate.scan(data)
      if steps == :pass
        super
      else
        steps.each do |(kind, value)|
          case kind
          when :feed then super(value)
          when :continue then send_data("HTTP/1.1 100 Continue\r\n\r\n")
          when :answer then deliver(*@app.error_reply(value.status, value.allow), keep_alive: false)
          end
        end
      end
      watch_headers
    end

    # The header watch found this connection's header section overdue.
    def headers_timed_out
      @gate.stop
      deliver(*@app.error_reply(408), keep_alive: false)
    end

    # Called by the parser for each piece of a body, before the request is dispatched.
    def receive_post_data(chunk)
      head = @gate.heads.first
      return unless head&.upload

      (head.digest ||= Digest::SHA256.new).update(chunk)
      head.upload_bytes += chunk.bytesize
    end

    # Called by the parser once a request and its body have arrived.
    def process_http_request
      head = @gate.heads.shift
      keep_alive = head.keep_alive
      path = StaticSite.decode_path(@http_path_info || '')
      method = @http_request_method
      return deliver(*@app.error_reply(400), keep_alive: false) if path.nil?

      case [method, path]
      in ['GET' | 'HEAD', '/hello'] then deliver(*@app.hello_reply, keep_alive: keep_alive, head_only: method == 'HEAD')
      in ['GET' | 'HEAD', '/delay'] then delay(@app.delay_ms(@http_query_string), keep_alive, method == 'HEAD')
      in ['POST', '/upload'] then deliver(*@app.upload_reply(head.upload_bytes, head.digest), keep_alive: keep_alive)
      in ['GET' | 'HEAD', _] if !@app.route?(path) then deliver(*@app.file_reply(path), keep_alive: keep_alive, head_only: method == 'HEAD')
      else
        allow = @app.allow_for(path)
        # A method no route takes (PUT, DELETE) is a method error: the connection closes even on a 404.
        if allow
          deliver(*@app.error_reply(405, allow),
                  keep_alive: false)
        else
          deliver(*@app.error_reply(404), keep_alive: keep_alive && method == 'POST')
        end
      end
    end

    def unbind
      super
      @replies.close
      @timers.each(&:cancel)
      @app.header_watch.done(self)
      @app.connection_cap.release if @admitted
    end

    private

    # A header section in progress is on the watch; between requests the idle (keep-alive)
    # timeout applies instead, from the first complete request on.
    def watch_headers
      if @gate.awaiting_header?
        @app.header_watch.waiting(self)
      else
        @app.header_watch.done(self)
        return if @idle_timeout_on || !@replies.empty?

        @idle_timeout_on = true
        self.comm_inactivity_timeout = @keep_alive_s
      end
    end

    def deliver(status, type, body, extra_headers = nil, keep_alive:, head_only: false, slot: nil)
      keep_alive &&= !CLOSING_STATUSES.include?(status)
      reply = Reply.new(self, status: status, type: type, body: body, keep_alive: keep_alive,
                              head_only: head_only, extra_headers: extra_headers, keep_alive_s: @keep_alive_s.round)
      slot ? @replies.fill(slot, reply) : @replies.deliver(reply)
    end

    # Waits on a timer, never blocking the loop; the idle timeout is off while a reply is pending.
    def delay(delay_ms, keep_alive, head_only)
      return deliver(*@app.error_reply(400), keep_alive: false) if delay_ms.nil?

      slot = @replies.reserve
      self.comm_inactivity_timeout = 0
      timer = EM::Timer.new(delay_ms / 1000.0) do
        @timers.delete(timer)
        deliver(200, 'text/plain; charset=utf-8', "waited #{delay_ms} ms\n".b, keep_alive: keep_alive, head_only: head_only, slot: slot)
        self.comm_inactivity_timeout = @keep_alive_s if @replies.empty? && @idle_timeout_on
      end
      @timers << timer
    end
  end
end
