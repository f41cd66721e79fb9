# frozen_string_literal: true

require 'time'
require 'eventmachine'
require 'evma_httpserver'

module EmVsNode
  # The HTTP date of the current second, formatted once per second rather than per reply.
  module HttpDate
    @second = nil
    @value = nil

    def self.now
      second = Process.clock_gettime(Process::CLOCK_REALTIME, :second)
      return @value if second == @second

      @second = second
      @value = Time.at(second).utc.httpdate.freeze
    end
  end

  # One reply, built on eventmachine_httpserver's DelegatedHttpResponse. Two of its rules do not
  # fit the contract and are replaced: Content-Length counts bytes (the library counts
  # characters) and is kept for HEAD, and the connection closes only when the request asked for
  # it or the reply is a closing error (the library closes on every status but 200).
  class Reply < EM::DelegatedHttpResponse
    def initialize(connection, status:, type:, body:, keep_alive:, head_only: false, extra_headers: nil, keep_alive_s: 5)
      super(connection)
      @status = status
      @content = body
      @head_only = head_only
      @keep_connection_open = keep_alive
      @headers['Content-Type'] = type
      @headers['Date'] = HttpDate.now
      @headers['Connection'] = keep_alive ? 'keep-alive' : 'close'
      @headers['Keep-Alive'] = "timeout=#{keep_alive_s}" if keep_alive
      @headers.merge!(extra_headers) if extra_headers
    end

    attr_reader :keep_connection_open

    def fixup_headers
      @headers['Content-Length'] = @content.bytesize
    end

    def send_body
      send_content unless @head_only
    end

    def send_response
      send_headers
      send_body
      close_connection_after_writing unless @keep_connection_open
    end
  end

  # Sends replies in the order their requests arrived, as HTTP/1.1 pipelining requires, though
  # a /delay reply is ready later than the requests behind it.
  class ReplyQueue
    Slot = Struct.new(:reply)

    def initialize
      @slots = []
      @closed = false
    end

    def empty?
      @slots.empty?
    end

    # Sends a reply that is ready now, or queues it behind replies still pending.
    def deliver(reply)
      return if @closed
      return transmit(reply) if @slots.empty?

      @slots << Slot.new(reply)
    end

    # A place in line for a reply that will be ready later.
    def reserve
      Slot.new(nil).tap { |slot| @slots << slot }
    end

    def fill(slot, reply)
      return if @closed

      slot.reply = reply
      transmit(@slots.shift.reply) while !@closed && @slots.first&.reply
    end

    # The connection is gone: nothing more will be sent.
    def close
      @closed = true
      @slots.clear
    end

    private

    def transmit(reply)
      reply.send_response
      close unless reply.keep_connection_open
    end
  end
end
