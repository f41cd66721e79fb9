# frozen_string_literal: true

require 'json'
require 'optparse'

module EmVsNode
  CONTRACT = JSON.parse(File.read(File.expand_path('../../contract.json', __dir__))).freeze

  # Server settings: command-line flags win over environment variables, which win over the
  # defaults in contract.json (shared with the Node server, so both enforce the same limits).
  Config = Struct.new(:host, :port, :root, :limits, :upstream, :redis, keyword_init: true)
  # A backend's address: host (brackets off an IPv6 one) and port.
  Backend = Struct.new(:host, :port)

  # Each Ruby server's port unless told otherwise, by its folder under ruby/ (the Node server's
  # is 8080), so that all of them can run side by side.
  DEFAULT_PORTS = { 'em' => 8081, 'async' => 8082, 'async_http' => 8083 }.freeze
  # A backend's address, as config.js reads it: a name or IPv4 address, or an IPv6 one in brackets.
  BACKEND_ADDRESS = /\A(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\z/

  class ConfigError < StandardError; end

  def self.positive_integer(name, raw, zero_allowed: false)
    unless raw.to_s.match?(/\A\d+\z/) && (raw.to_i.positive? || zero_allowed)
      raise ConfigError, "#{name} must be a #{zero_allowed ? 'whole number' : 'positive integer'}, got '#{raw}'"
    end

    raw.to_i
  end

  # The same checks as the Node server's config.js: settings both servers can honour alike.
  def self.check_limits(limits)
    CONTRACT['limits_max'].each do |name, most|
      next if limits[name] <= most

      raise ConfigError, "#{name}=#{limits[name]} is above #{most}, the most eventmachine_httpserver's parser can take; " \
                         'both servers refuse it so that they keep the same limits'
    end
    return if limits['REQUEST_TIMEOUT_MS'] >= limits['HEADERS_TIMEOUT_MS']

    raise ConfigError, "REQUEST_TIMEOUT_MS=#{limits['REQUEST_TIMEOUT_MS']} must be at least " \
                       "HEADERS_TIMEOUT_MS=#{limits['HEADERS_TIMEOUT_MS']}"
  end

  # A backend's HOST:PORT as a Backend, or nil when not set (absent or empty); raises on a
  # malformed one. Only the form is checked: an unreachable backend is not a start-up error, its
  # routes answer 502/503 until it is there.
  def self.backend_address(name, raw)
    return nil if raw.nil? || raw.empty?

    match = BACKEND_ADDRESS.match(raw)
    port = match ? match[2].to_i : 0
    raise ConfigError, "#{name} must be HOST:PORT with a port 1..65535, got '#{raw}'" unless match && port.between?(1, 65_535)

    Backend.new(match[1].delete_prefix('[').delete_suffix(']'), port)
  end

  def self.usage(server)
    "usage: ruby ruby/#{server}/server.rb [--host HOST] [--port PORT] [--root DIR] [--upstream HOST:PORT] [--redis HOST:PORT]"
  end

  def self.parse_flags(argv, usage)
    flags = {}
    OptionParser.new do |o|
      o.banner = usage
      o.on('--host HOST') { |v| flags[:host] = v }
      o.on('--port PORT') { |v| flags[:port] = v }
      o.on('--root DIR') { |v| flags[:root] = v }
      o.on('--upstream HOST:PORT') { |v| flags[:upstream] = v }
      o.on('--redis HOST:PORT') { |v| flags[:redis] = v }
      o.on('--help') do
        puts usage
        exit 0
      end
    end.parse!(argv.dup)
    flags
  rescue OptionParser::ParseError => e
    raise ConfigError, "#{e.message}\n#{usage}"
  end

  # server: the server's folder under ruby/, whose default port and usage line apply (its bare
  # reference reads its settings as it).
  def self.read_config(argv, env = ENV, server:)
    flags = parse_flags(argv, usage(server))
    limits = CONTRACT['limits'].to_h do |name, fallback|
      [name, env[name] ? positive_integer(name, env[name], zero_allowed: fallback.zero?) : fallback]
    end
    check_limits(limits)

    port = positive_integer('port', flags[:port] || env['PORT'] || DEFAULT_PORTS.fetch(server))
    raise ConfigError, "port must be at most 65535, got #{port}" if port > 65_535

    Config.new(
      host: flags[:host] || env['HOST'] || '127.0.0.1',
      port: port,
      root: File.expand_path(flags[:root] || env['ROOT'] || File.expand_path('../../shared_www', __dir__)),
      limits: limits.freeze,
      upstream: backend_address('upstream', flags[:upstream] || env['UPSTREAM']),
      redis: backend_address('redis', flags[:redis] || env['REDIS'])
    )
  end

  # The settings, or the start's end in one line (`who: …`, exit 2).
  def self.read_config_or_exit(argv, server:, who:)
    read_config(argv, server: server)
  rescue ConfigError => e
    warn "#{who}: #{e.message}"
    exit 2
  end
end
