# frozen_string_literal: true

require 'eventmachine'
require 'logger'
require_relative 'call_deadlines'

module EmVsNode
  # Redis behind /db, reached through em-hiredis on one connection, commands pipelined on it, as
  # the Node server's database.js reaches it with node-redis. A call fails at once while the
  # connection is down: em-hiredis would otherwise queue commands until it reconnects (and fail
  # them only after four failed attempts), and a request would wait for a Redis that may never
  # come back; node-redis is set the same way (disableOfflineQueue). em-hiredis reconnects in the
  # background every RECONNECT_S, as node-redis is told to. Each call has a deadline
  # (BACKEND_TIMEOUT_MS): em-hiredis has none for a Redis that accepts and hangs.
  class Database
    include CallDeadlines::OneResult

    # em-hiredis's own interval, which database.js gives node-redis, so that both come back alike.
    RECONNECT_S = 0.5

    # One GET: what to tell (nil once cancelled), whether it has ended.
    Call = Struct.new(:database, :done, :finished) do
      def cancel
        database.cancel(self)
      end
    end

    def initialize(host, port, key_prefix:, timeout_ms:)
      # Loaded only when Redis is configured: a server without one (every benchmark but the
      # backend scenarios) keeps its start-up and memory as they were. database.js does the same.
      require 'em-hiredis'
      @host = host
      @port = port
      @key_prefix = key_prefix
      @deadlines = CallDeadlines.new(timeout_ms / 1000.0)
      @down = false
    end

    # Connects in the background (inside the loop): an unreachable Redis is no start-up error
    # (/db is 503 meanwhile).
    def start
      EM::Hiredis.reconnect_timeout = RECONNECT_S
      # Its logger would say each failed attempt on stdout; an outage is said once, below.
      EM::Hiredis.logger = Logger.new(nil)
      @client = EM::Hiredis::Client.new(@host, @port)
      @client.on(:reconnect_failed) { went_down('connection refused or failed') }
      @client.on(:disconnected) { went_down('disconnected') }
      @client.on(:connected) { came_back }
      connect
    end

    # GET of the row id's key; yields once, the stored string or nil (missing, an error,
    # disconnected, past the deadline). Returns the call: #cancel means the block is never
    # called (a command already on the wire runs on; its reply is dropped).
    def get(id, &done)
      call = Call.new(self, done, false)
      unless @client.connected?
        finish(call, nil)
        return call
      end

      @deadlines.watch(call) { finish(call, nil) }
      command = @client.get("#{@key_prefix}#{id}")
      command.callback { |value| finish(call, value) }
      command.errback { finish(call, nil) }
      call
    end

    def cancel(call)
      call.done = nil
      finish(call, nil)
    end

    private

    # EventMachine resolves a name before it connects, and raises at once when it cannot; then
    # the first connection is tried again later, as node-redis would (em-hiredis retries only a
    # connection it has made).
    def connect
      @client.connect
    rescue EventMachine::ConnectionError => e
      went_down(e.message)
      EM.add_timer(RECONNECT_S) { connect }
    end

    def went_down(why)
      return if @down || EM.stopping? # the loop's own stop closes the connection: no outage

      @down = true
      warn "em server: redis at #{@host}:#{@port} unreachable (#{why}); /db answers 503, reconnecting"
    end

    def came_back
      warn "em server: redis at #{@host}:#{@port} reachable again" if @down
      @down = false
    end
  end
end
