# frozen_string_literal: true

require 'minitest/autorun'
require_relative 'gate_helpers'

# The start of a request line as Node's parser reads it (ruby/shared/node_parser_methods.rb),
# through the gate: the moment each is refused or held.
class NodeParserMethodsTest < Minitest::Test
  include GateHelpers

  # A method Node's parser reads, and the protocol it may come with: refused at the first byte
  # that makes either impossible, held where Node's parser holds (a method of another protocol).
  def test_methods_by_protocol_as_nodes_parser_reads_them
    ['DESCRIB', 'DESCRIBE / RTS', "DESCRIBE / RTSP/1.0\r\nCSeq: 1\r\n", 'GET / RTSP/1', 'FLUSH * RTSP/1.0',
     'SOURCE / IC', 'SOURCE / ICE/1.0', 'DESCRIBE /a HT', 'PR', 'PRI * HTTP/1.1', 'QUERY /hello HTTP/1.1',
     "GET /hello\r\nHost"].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_empty answers, "waits: #{start.inspect}"
    end
    ['GET / ICE', 'PUT /hello RTSP', "PUT /hello RTSP/1.0\r\nCSeq: 1\r\n", 'DESCRIBE / HTTP', 'FLUSH / HTTP/1.1',
     'GETS', 'G-', "/upload HTTP/1.1\r\nHost: x\r\n", '/upload HTTP/1.1', 'GET / HTTX'].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_equal [400], answers, "at once: #{start.inspect}"
    end
  end

  # Node's server reads RTSP/ and ICE/ request lines as HTTP/ ones of their version: the C
  # parser gets them as HTTP's; a method it does not serve is answered as any other.
  def test_other_protocols_are_read_as_http
    fed, answers, = run_chunks(gate, ["GET /hello RTSP/1.0\r\n\r\n"])
    assert_equal ["GET /hello HTTP/1.0\r\n\r\n", []], [fed, answers]
    fed, answers, = run_chunks(gate, ["GET /hello RTSP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n"])
    assert_equal ["GET /hello HTTP/1.1\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n", []], [fed, answers]
    { "DESCRIBE /hello RTSP/1.0\r\n\r\n" => 405, "SOURCE /nothing ICE/1.0\r\n\r\n" => 404, 'GET /hello RTSP/1.2' => 400,
      "GET /hello RTSP/1.1\r\n\r\n" => 400, "PUT /hello RTSP/1.0\r\n\r\n" => 400 }.each do |whole, status|
      _, answers, = run_chunks(gate, [whole])
      assert_equal [status], answers, whole.inspect
    end
  end

  # After `PRI <target> HTTP/x.y` Node's parser reads only HTTP/2's connection preface, and Node's
  # server refuses it whole.
  def test_pri_reads_the_preface
    ["PRI * HTTP/1.1\r", "PRI * HTTP/1.1\r\n\r\n", "PRI * HTTP/1.1\r\n\r\nSM", "PRI * HTTP/2.0\r\n\r\nSM\r\n"].each do |start|
      fed, answers, = run_chunks(gate, [start])
      assert_empty answers, "waits: #{start.inspect}"
      assert_empty fed
    end
    ["PRI * HTTP/1.1\r\nHost: x\r\n\r\n", "PRI * HTTP/1.1\r\n\r\nSX", "PRI /hello HTTP/1.0\r\n\r\nS\r",
     "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\nGET /hello HTTP/1.1\r\n\r\n"].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_equal [400], answers, "at once: #{start.inspect}"
    end
  end
end
