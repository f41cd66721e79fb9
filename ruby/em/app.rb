# frozen_string_literal: true

require 'digest'
require 'uri'
require_relative 'static_site'
require_relative 'header_watch'

module EmVsNode
  # What each route answers, independent of connections: the same routes as the Node server.
  class App
    attr_reader :limits, :site, :header_watch, :connection_cap

    def initialize(config, contract)
      @limits = config.limits
      @header_watch = HeaderWatch.new(@limits['HEADERS_TIMEOUT_MS'])
      @connection_cap = ConnectionCap.new(@limits['MAX_CONNECTIONS'])
      @contract = contract
      @site = StaticSite.new(config.root, contract)
      @hello = contract['hello_body'].b.freeze
      @routes = contract['routes']
      @status_text = contract['status_text']
    end

    def route?(path)
      @routes.key?(path)
    end

    # The Allow value for a path whose route has no handler for the method; nil when unknown.
    def allow_for(path)
      @routes.fetch(path) { @site.lookup(path) ? @contract['static_allow'] : nil }
    end

    def hello_reply
      [200, @contract['hello_type'], @hello]
    end

    def error_reply(status, allow = nil)
      [status, 'text/plain; charset=utf-8', "#{@status_text[status.to_s]}\n".b, allow && { 'Allow' => allow }]
    end

    def file_reply(path)
      file = @site.lookup(path)
      file ? [200, file.type, file.body] : error_reply(404)
    end

    def upload_reply(bytes, digest)
      [200, 'application/json', %({"bytes":#{bytes},"sha256":"#{(digest || Digest::SHA256.new).hexdigest}"}).b]
    end

    # The delay in ms for a /delay query, or nil when it is not an integer 0..delay_max_ms.
    def delay_ms(query)
      pair = (query || '').split('&').find { |p| decode_component(p.split('=', 2)[0]) == 'ms' }
      value = pair && decode_component(pair.split('=', 2)[1] || '')
      return nil unless value&.match?(/\A\d{1,5}\z/) && value.to_i <= @contract['delay_max_ms']

      value.to_i
    end

    private

    def decode_component(text)
      URI.decode_www_form_component(text)
    rescue ArgumentError
      nil
    end
  end
end
