# frozen_string_literal: true

require_relative 'config'
require_relative 'static_site'
require_relative 'app'
require_relative 'connection_cap'

module EmVsNode
  # The parts every Ruby server builds first, in the same order as the Node server's server.js:
  # the settings (config), the document root (StaticSite), the backends (each only when
  # configured, on its server's own clients), the routes (App) and the ConnectionCap. What comes
  # next is each server's own, on its event loop: its deadlines, connections and listener.
  Parts = Struct.new(:config, :app, :cap, :upstream, :database) do
    # The backends configured.
    def backends = [upstream, database].compact
  end

  # Builds the parts of the server in ruby/<server>/ and yields them, the block running its event
  # loop; backends: a callable from the settings to the server's [upstream, database], each nil
  # when not configured. A setting the servers cannot honour ends the start in one line (exit 2),
  # as does a document root that cannot be read (exit 1).
  def self.run_server(server, argv, backends:)
    name = "#{server} server"
    config = read_config_or_exit(argv, server: server, who: name)
    site = StaticSite.new(config.root, CONTRACT)
    upstream, database = backends.call(config)
    app = App.new(site, config.limits, CONTRACT, upstream: upstream, database: database)
    cap = ConnectionCap.new(config.limits['MAX_CONNECTIONS'], name)
    $stdout.sync = true
    yield Parts.new(config, app, cap, upstream, database)
  rescue SystemCallError => e
    warn "#{name}: cannot load the document root: #{e.message}"
    exit 1
  end

  # The line that says a server is ready (the benchmark runner waits for it).
  def self.say_listening(name, config)
    puts "#{name} listening on http://#{config.host}:#{config.port} (root #{config.root})"
  end
end
