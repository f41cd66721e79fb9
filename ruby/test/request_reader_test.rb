# frozen_string_literal: true

require 'minitest/autorun'
require_relative '../shared/request_gate'
require_relative '../async/request_reader'

# The async server's reader, behind the gate: the same requests, methods, queries and bodies
# however the bytes are split into chunks.
class RequestReaderTest < Minitest::Test
  Reader = EmVsNode::AsyncServer::RequestReader
  LIMITS = {
    'MAX_UPLOAD_BYTES' => 1000, 'MAX_HEADER_BYTES' => 2048, 'MAX_HEADER_LINE_BYTES' => 1000,
    'MAX_URL_BYTES' => 200, 'KEEPALIVE_TIMEOUT_MS' => 5000
  }.freeze

  # Reads the chunks through a gate and a reader; returns what the reader said, bodies joined.
  def read_chunks(chunks)
    gate = EmVsNode::RequestGate.new(LIMITS, ->(_) {})
    reader = Reader.new
    events = []
    chunks.each do |chunk|
      steps = gate.scan(chunk.b)
      steps = [[:feed, chunk.b]] if steps == :pass
      steps.each do |kind, value|
        next events << [kind, value.is_a?(Struct) ? value.status : nil] unless kind == :feed

        reader.read(value) { |*event| record(events, event) }
      end
    end
    events
  end

  def record(events, event)
    return events.last[1] << event[1] if event[0] == :body && events.last&.first == :body

    events << (event[0] == :body ? [:body, +event[1]] : event)
  end

  def splits(text)
    (1...text.bytesize).map { |at| [text.byteslice(0, at), text.byteslice(at..)] }
  end

  def test_a_request_without_a_body
    assert_equal [[:request, 'GET', 'ms=5&a=b', 0]], read_chunks(["GET /delay?ms=5&a=b HTTP/1.1\r\nHost: a\r\n\r\n"])
  end

  def test_no_query_is_nil_and_an_empty_one_is_empty
    events = read_chunks(["GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello? HTTP/1.1\r\nHost: a\r\n\r\n"])
    assert_equal [[:request, 'GET', nil, 0], [:request, 'GET', '', 0]], events
  end

  def test_pipelined_uploads_split_anywhere
    stream = "POST /upload HTTP/1.1\r\nHost: a\r\ncontent-LENGTH: 5\r\n\r\nhello" \
             "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
    whole = read_chunks([stream])
    assert_equal [[:request, 'POST', nil, 5], [:body, 'hello'], [:body_end], [:request, 'POST', nil, 3], [:body, 'abc'],
                  [:body_end], [:request, 'GET', nil, 0]], whole
    splits(stream).each { |chunks| assert_equal whole, read_chunks(chunks), chunks.inspect }
  end

  def test_a_body_the_gate_drops_never_reaches_the_reader
    events = read_chunks(["GET /hello HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbodyGET /x?y HTTP/1.1\r\nHost: a\r\n\r\n"])
    assert_equal [[:request, 'GET', nil, 0], [:request, 'GET', 'y', 0]], events
  end

  def test_a_refused_request_is_the_gates_answer_and_nothing_after_it_is_read
    events = read_chunks(["GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n"])
    assert_equal [[:request, 'GET', nil, 0], [:answer, 400]], events
  end

  def test_a_long_request_line_with_two_spaces_is_read_from_the_gates_rewrite
    target = "/delay?ms=1&pad=#{'x' * 150}"
    events = read_chunks(["GET  #{target} HTTP/1.1\r\nHost: a\r\nX: #{'y' * 900}\r\n\r\n"])
    assert_equal [[:request, 'GET', target.split('?', 2)[1], 0]], events
  end
end
